/* SPDX-License-Identifier: MIT */
/* End of file when the creator execs (to a program that keeps running):
 * read() returns 0 and poll() says POLLIN|POLLHUP; signals sent to the new
 * image never appear on the fd, they stay with the new image. Records the
 * user-space backend had taken before the exec are read first. The kernel
 * backends (SFD_CREATOR, the module) take nothing at the exec: POSIX keeps
 * pending signals for the new image, which finds them all still pending. */
#include "share_util.h"

#define COUNT 10 /* the "10" below */

/* The new image: check that the SIGRTMINs the fd did not take are pending,
 * in order, say it is up, then wait for SIGUSR1 (still blocked across exec)
 * and check it came from the parent. */
static int new_image(const char *up_fd, const char *parent, const char *left)
{
	sigset_t usr1 = set_of(SIGUSR1), rt = set_of(SIGRTMIN);
	siginfo_t si;

	for (int i = 0; i < atoi(left); i++) {
		CHECK(sigtimedwait(&rt, &si, &(struct timespec){ 0 }) == SIGRTMIN);
		CHECK(si.si_value.sival_int == i);
	}
	CHECK(!pending_has(SIGRTMIN));
	CHECK(write(atoi(up_fd), "u", 1) == 1);
	CHECK(sigwaitinfo(&usr1, &si) == SIGUSR1);
	CHECK(si.si_pid == atoi(parent));
	return 0;
}

int main(int argc, char **argv)
{
	sigset_t mask;
	int link[2], go[2], up[2];
	pid_t creator;
	char c;

	if (argc == 5 && strcmp(argv[1], "image") == 0)
		return new_image(argv[2], argv[3], argv[4]);
	sigemptyset(&mask);
	sigaddset(&mask, SIGRTMIN);
	sigaddset(&mask, SIGUSR1);
	block_only(&mask);
	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, link) == 0);
	CHECK(pipe(go) == 0 && pipe(up) == 0); /* up[1] is inherited by the new image */
	creator = fork();
	CHECK(creator >= 0);
	if (creator == 0) {
		char up_fd[16], parent[16];
		int fd = sigfd(&mask, SIGFD_SHARE | SIGFD_CLOEXEC);
		CHECK(fd >= 0);
		send_fd(link[1], fd);
		CHECK(read(go[0], &c, 1) == 1);
		for (int i = 0; i < COUNT; i++)
			CHECK(sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = i }) == 0);
		/* All readable before the exec: the user-space backend's thread
		 * has taken them (it dies at the exec), the kernel's are live. */
		WAIT_UNTIL(queued_bytes(fd) == COUNT * 128);
		snprintf(up_fd, sizeof up_fd, "%d", up[1]);
		snprintf(parent, sizeof parent, "%d", (int)getppid());
		execl(argv[0], argv[0], "image", up_fd, parent, kernel_backend(fd) ? "10" : "0",
		      (char *)NULL);
		_exit(127);
	}
	CHECK(close(up[1]) == 0); /* a failed exec then shows as end of file on up[0] */
	int fd = recv_fd(link[0]);
	int before_exec = kernel_backend(fd) ? 0 : COUNT;
	CHECK(write(go[1], "g", 1) == 1);
	CHECK(read(up[0], &c, 1) == 1); /* the new image runs */

	struct pollfd p = { .fd = fd, .events = POLLIN };
	for (int i = 0; i < before_exec; i++) {
		CHECK(poll(&p, 1, 1000) == 1);
		CHECK(read_one(fd).ssi_int == i);
	}
	/* The exec ended the creator's image: end of file within a second. */
	CHECK(poll(&p, 1, 1000) == 1);
	CHECK(p.revents & POLLHUP); /* the kernel backend adds POLLIN, as in 2003 */
	struct sigfd_siginfo r;
	CHECK(read(fd, &r, sizeof r) == 0);
	/* The creator's pid now runs the new image: its signals are its own. */
	CHECK(kill(creator, SIGUSR1) == 0);
	reap_ok(creator);
	CHECK(read(fd, &r, sizeof r) == 0);
	CHECK(close(fd) == 0);
	close_pair(link);
	close_pair(go);
	CHECK(close(up[0]) == 0);
	return 0;
}
