/* SPDX-License-Identifier: MIT */
/* 1,000 RT signals queued at once, read one record per call: far more than a
 * share fd holds unread, so the rest wait in the kernel queue and are taken
 * as the reader frees room, also when it has read only part of what was
 * written together. Every value arrives once, in order; a missed wake-up
 * would leave the reader waiting and fail the poll. */
#include <sys/resource.h>

#include "share_util.h"

#define COUNT 1000

int main(void)
{
	sigset_t mask = set_of(SIGRTMIN);
	struct rlimit lim;
	struct sigfd_siginfo r;
	struct pollfd p;
	int fd;

	CHECK(getrlimit(RLIMIT_SIGPENDING, &lim) == 0);
	if (lim.rlim_cur != RLIM_INFINITY && lim.rlim_cur < 2 * COUNT) {
		lim.rlim_cur = lim.rlim_max == RLIM_INFINITY || lim.rlim_max >= 2 * COUNT ? 2 * COUNT
											    : lim.rlim_max;
		CHECK(setrlimit(RLIMIT_SIGPENDING, &lim) == 0);
	}
	block_only(&mask);
	fd = sigfd(&mask, SIGFD_SHARE);
	CHECK(fd >= 0);
	for (int i = 0; i < COUNT; i++)
		CHECK(sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = i }) == 0);
	p = (struct pollfd){ .fd = fd, .events = POLLIN };
	for (int i = 0; i < COUNT; i++) {
		CHECK(poll(&p, 1, 10000) == 1 && p.revents == POLLIN);
		r = read_one(fd);
		CHECK(r.ssi_signo == (uint32_t)SIGRTMIN && r.ssi_int == i);
		CHECK(r.ssi_pid == (uint32_t)getpid() && r.ssi_code == SI_QUEUE);
	}
	CHECK(poll(&p, 1, 0) == 0);
	CHECK(!pending_has(SIGRTMIN));
	CHECK(close(fd) == 0);
	return 0;
}
