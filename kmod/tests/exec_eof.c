/* SPDX-License-Identifier: MIT */
/* The creator execs while a reader sleeps in poll(): the exec alone wakes
 * it with POLLIN|POLLHUP, then read() returns 0; signals to the new image
 * never show up on the descriptor, they are the new image's. Done with a single-threaded creator, then with one that
 * has a second thread (its sighand is then replaced and freed by the exec). */
#include <pthread.h>

#include "kmod_util.h"

static int new_image(void)
{
	sigset_t usr1 = set_of(SIGUSR1);
	siginfo_t si;

	CHECK(pending_has(SIGRTMIN)); /* outside the mask: kept across exec */
	CHECK(sigwaitinfo(&usr1, &si) == SIGUSR1);
	return 0;
}

static void *idle(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void round_trip(int threaded, char *self)
{
	sigset_t mask = set_of(SIGUSR1);
	int link[2], go[2];
	pid_t creator;

	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, link) == 0);
	CHECK(pipe(go) == 0);
	creator = fork();
	CHECK(creator >= 0);
	if (creator == 0) {
		char c;
		pthread_t t;
		int fd = sigfd(&mask, SIGFD_SHARE | SIGFD_CLOEXEC);
		CHECK(fd >= 0);
		if (threaded)
			CHECK(pthread_create(&t, NULL, idle, NULL) == 0);
		send_fd(link[1], fd);
		CHECK(read(go[0], &c, 1) == 1);
		CHECK(sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = 1 }) == 0);
		WAIT_ASLEEP(getppid()); /* the reader is in poll() */
		execl(self, self, "image", (char *)NULL);
		_exit(127);
	}
	int fd = recv_fd(link[0]);
	struct sigfd_siginfo r;
	struct pollfd p = { .fd = fd, .events = POLLIN };

	assert_kernel_fd(fd);
	CHECK(poll(&p, 1, 0) == 0);
	/* Nothing in the mask is sent: only the exec can wake this poll. */
	CHECK(write(go[1], "g", 1) == 1);
	CHECK(poll(&p, 1, 10000) == 1 && p.revents == (POLLIN | POLLHUP));
	CHECK(read(fd, &r, sizeof r) == 0);
	CHECK(kill(creator, SIGUSR1) == 0);
	reap_ok(creator);
	CHECK(read(fd, &r, sizeof r) == 0);
	CHECK(close(fd) == 0 && close(go[0]) == 0 && close(go[1]) == 0);
	CHECK(close(link[0]) == 0 && close(link[1]) == 0);
}

int main(int argc, char **argv)
{
	sigset_t mask;

	if (argc == 2 && strcmp(argv[1], "image") == 0)
		return new_image();
	sigemptyset(&mask);
	sigaddset(&mask, SIGRTMIN);
	sigaddset(&mask, SIGUSR1);
	block_only(&mask);
	round_trip(0, "/proc/self/exe");
	round_trip(1, "/proc/self/exe");
	return 0;
}
