/* SPDX-License-Identifier: MIT */
/* The limit this measures (sigfd(3) BUGS; listed in tests/known-differences,
 * so a run that sees it is an expected failure): the user-space backend's
 * own descriptors (the forwarding thread's signalfd, eventfd and epoll
 * descriptor, and the pipe's write end) close a thread hop after the last
 * share fd is closed, not when close() returns. 100 rounds: the descriptors
 * open right after close() are counted against those open before sigfd(),
 * then the test waits for them to go (no leak), timing it. Exit 1 when any
 * round saw them, with the figures; 0 when none did. The user-space
 * backend only (the kernel backends have no descriptors of their own). */
#include <time.h>

#include "share_util.h"

#define ROUNDS 100

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(void)
{
	sigset_t usr1 = set_of(SIGUSR1);
	int seen = 0;
	double longest = 0;

	block_only(&usr1);
	CHECK(setenv("SIGFD_BACKEND", "user", 1) == 0);
	for (int i = 0; i < ROUNDS; i++) {
		int before = fd_count();
		int fd = sigfd(&usr1, SIGFD_SHARE | SIGFD_CLOEXEC);
		CHECK(fd >= 0);
		CHECK(close(fd) == 0);
		double closed = now_ms();
		if (fd_count() != before) {
			seen++;
			WAIT_UNTIL(fd_count() == before);
			if (now_ms() - closed > longest)
				longest = now_ms() - closed;
		}
	}
	if (seen) {
		printf("the library's descriptors were still open right after close() in %d of %d rounds, for up to %.1f ms\n",
		       seen, ROUNDS, longest);
		return 1;
	}
	printf("the library's descriptors were gone right after close() in all %d rounds\n", ROUNDS);
	return 0;
}
