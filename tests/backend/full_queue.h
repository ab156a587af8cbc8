/* SPDX-License-Identifier: MIT */
/* For the tests that fill the user's signal queue up to RLIMIT_SIGPENDING
 * so that the forwarding thread cannot give a record back (run-alone: all
 * of the user's processes share the queue): the limit lowered to what is
 * queued now and a little more, the queue filled with a filler signal,
 * room made again, and the held record looked for. */
#ifndef SIGFD_TESTS_FULL_QUEUE_H
#define SIGFD_TESTS_FULL_QUEUE_H

#include <sys/resource.h>

#include "share_util.h"

/* Room for the test's own signals only (the old limit into *old); other
 * processes of the user may move the count meanwhile, which only makes
 * room. */
static inline void queue_limit_low(struct rlimit *old)
{
	struct rlimit low;

	CHECK(getrlimit(RLIMIT_SIGPENDING, old) == 0);
	low = *old;
	low.rlim_cur = (rlim_t)thread_status_field(getpid(), "SigQ:", 0) + 64;
	CHECK(setrlimit(RLIMIT_SIGPENDING, &low) == 0);
}

/* filler queued with values 0, 1, ... until the queue refuses: how many. */
static inline int queue_fill(int filler)
{
	int fillers = 0;

	while (sigqueue(getpid(), filler, int_val(fillers)) == 0)
		fillers++;
	CHECK(errno == EAGAIN && fillers > 0);
	return fillers;
}

/* The fillers taken back in order, and the old limit. */
static inline void queue_make_room(int filler, int fillers, const struct rlimit *old)
{
	sigset_t fill = set_of(filler);
	struct timespec now = { 0, 0 };
	siginfo_t si;

	for (int i = 0; i < fillers; i++) {
		CHECK(sigtimedwait(&fill, &si, &now) == filler);
		CHECK(si.si_value.sival_int == i);
	}
	CHECK(setrlimit(RLIMIT_SIGPENDING, old) == 0);
}

/* The record the full queue refused, pending again within 10 s with its
 * value and origin, once: 0, or 1 with the loss said (what). */
static inline int queue_gave_back(int sig, int value, const char *what)
{
	sigset_t mask = set_of(sig);
	struct timespec now = { 0, 0 }, later = { 10, 0 };
	siginfo_t si;

	if (sigtimedwait(&mask, &si, &later) != sig) {
		fprintf(stderr, "%s\n", what);
		return 1;
	}
	CHECK(si.si_code == SI_QUEUE && si.si_pid == getpid() && si.si_value.sival_int == value);
	CHECK(sigtimedwait(&mask, &si, &now) == -1 && errno == EAGAIN);
	return 0;
}

#endif
