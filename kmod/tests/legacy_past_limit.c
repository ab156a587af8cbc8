/* SPDX-License-Identifier: MIT */
/* Issue 26, item 3: the kernel queues legacy signals past RLIMIT_SIGPENDING
 * (kill(), SIGCHLD, SIGPIPE, faults: override_rlimit). CREATORS creators in
 * turn get every catchable legacy signal but SIGCONT (28: a stop signal
 * after it would discard it) by kill(), with the limit at
 * LIMIT, then exit; we hold every descriptor. What their descriptors keep
 * charged stays within the limit (before the fix: all 28 a creator, 112 for
 * a limit of 16, and the user could queue no RT signal while they were
 * held), and no signal is lost: each descriptor reads all 28 (those past
 * the limit without their siginfo, as the kernel keeps a signal it has no
 * queue space for), then end of file. Closing them drops every charge. */
#include <sys/resource.h>

#include "kmod_util.h"
#include "creator_util.h"

#define LIMIT 16
#define CREATORS 4
#define LEGACY 28

int main(void)
{
	struct rlimit lim = { LIMIT, LIMIT };
	int fds_before = fd_count(), fds[CREATORS], go, n;
	sigset_t set;
	uint64_t mask = legacy_mask(&set);
	struct sigfd_siginfo r;
	long base, held;
	pid_t creator;

	/* The creators inherit the mask: every signal stays pending. */
	block_only(&set);
	CHECK(setrlimit(RLIMIT_SIGPENDING, &lim) == 0);
	base = sigq_used();
	sigset_t chld = set_of(SIGCHLD);

	for (int i = 0; i < CREATORS; i++) {
		creator = fork_creator(mask, SIGFD_KF_NONBLOCK, &fds[i], &go);
		/* Ours is ignored, not blocked: no record of ours in the count. */
		CHECK(sigprocmask(SIG_UNBLOCK, &chld, NULL) == 0);
		for (int sig = 1; sig < 32; sig++)
			if (sigismember(&set, sig))
				CHECK(kill(creator, sig) == 0);
		put_byte(go);
		reap_ok(creator);
		/* Ended (the module says POLLHUP now, SFD_CREATOR once read). */
		CHECK(poll_events(fds[i], POLLIN, 0) & POLLIN);
		CHECK(close(go) == 0);
		CHECK(sigprocmask(SIG_BLOCK, &chld, NULL) == 0);
	}
	held = sigq_used() - base;
	printf("legacy_past_limit: %d dead creators, %d legacy signals each, RLIMIT_SIGPENDING %d: "
	       "%ld records charged\n", CREATORS, LEGACY, LIMIT, held);
	CHECK(held <= LIMIT);
	for (int i = 0; i < CREATORS; i++) {
		for (n = 0; read(fds[i], &r, sizeof r) == (ssize_t)sizeof r; n++)
			;
		CHECK(n == LEGACY);
		CHECK(read(fds[i], &r, sizeof r) == 0);
		CHECK(close(fds[i]) == 0);
	}
	CHECK(sigq_used() == base);
	CHECK(fd_count() == fds_before);
	return 0;
}
