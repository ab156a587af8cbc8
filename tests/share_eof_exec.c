/* End of file when the creator execs (to a program that keeps running):
 * records taken before are read first, then read() returns 0; signals sent
 * to the new image never appear on the fd, they stay with the new image. */
#include "share_util.h"

#define COUNT 10

/* The new image: wait for SIGUSR1 (still blocked across exec) and report
 * its sender through the exit status check in the parent. */
static int new_image(const char *parent)
{
	sigset_t usr1 = set_of(SIGUSR1);
	siginfo_t si;

	CHECK(sigwaitinfo(&usr1, &si) == SIGUSR1);
	CHECK(si.si_pid == atoi(parent));
	return 0;
}

int main(int argc, char **argv)
{
	sigset_t mask;
	int link[2], go[2], forwarded[2];
	pid_t creator;

	if (argc == 3 && strcmp(argv[1], "image") == 0)
		return new_image(argv[2]);
	sigemptyset(&mask);
	sigaddset(&mask, SIGRTMIN);
	sigaddset(&mask, SIGUSR1);
	block_only(&mask);
	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, link) == 0);
	CHECK(pipe(go) == 0 && pipe(forwarded) == 0);
	creator = fork();
	CHECK(creator >= 0);
	if (creator == 0) {
		char parent[32], c;
		int fd = sigfd(&mask, SIGFD_SHARE | SIGFD_CLOEXEC);
		CHECK(fd >= 0);
		send_fd(link[1], fd);
		CHECK(read(go[0], &c, 1) == 1);
		for (int i = 0; i < COUNT; i++)
			CHECK(sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = i }) == 0);
		WAIT_UNTIL(queued_bytes(fd) == COUNT * 128);
		CHECK(write(forwarded[1], "x", 1) == 1);
		snprintf(parent, sizeof parent, "%d", (int)getppid());
		execl(argv[0], argv[0], "image", parent, (char *)NULL);
		_exit(127);
	}
	int fd = recv_fd(link[0]);
	CHECK(write(go[1], "g", 1) == 1);
	char c;
	CHECK(read(forwarded[0], &c, 1) == 1); /* all taken; the exec follows */

	struct pollfd p = { .fd = fd, .events = POLLIN };
	for (int i = 0; i < COUNT; i++) {
		CHECK(poll(&p, 1, 10000) == 1);
		CHECK(read_one(fd).ssi_int == i);
	}
	/* The exec closes the writers: end of file within a second of it. */
	CHECK(poll(&p, 1, 1000) == 1);
	CHECK((p.revents & (POLLIN | POLLHUP)) == (POLLIN | POLLHUP));
	struct sigfd_siginfo r;
	CHECK(read(fd, &r, sizeof r) == 0);
	/* The creator's pid now runs the new image: its signals are its own. */
	CHECK(kill(creator, SIGUSR1) == 0);
	reap_ok(creator);
	CHECK(read(fd, &r, sizeof r) == 0);
	CHECK(close(fd) == 0);
	return 0;
}
