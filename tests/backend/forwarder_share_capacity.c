/* SPDX-License-Identifier: MIT */
/* A process holds as many share fds as its RLIMIT_NOFILE allows, less a
 * few (sigfd(3): the free numbers of its table less two, which a call uses
 * for a moment, and at most the limit less 20, which the forwarding thread
 * keeps for itself in its own table): with a limit of 1024 the next sigfd()
 * fails with EMFILE only then. The forwarding thread's write ends took
 * numbers from 256 up in its own table and ran out first (issue 25: EMFILE
 * at 764 share fds with 255 numbers free in the program's table). The
 * share fds still work: a signal reaches the first. */
#include "share_util.h"

#define LIMIT 1024

int main(void)
{
	struct rlimit lim = { LIMIT, LIMIT }, old;
	sigset_t mask = set_of(SIGUSR1);
	static int fds[LIMIT];
	int n = 0, free_at_start;

	if (UNDER_TSAN) {
		/* It takes a descriptor number for one object across tables:
		 * the thread's table, full, uses the program's numbers too. */
		puts("SKIPPED: under ThreadSanitizer, which cannot tell two descriptor tables apart");
		return 77;
	}
	CHECK(getrlimit(RLIMIT_NOFILE, &old) == 0);
	lim.rlim_max = old.rlim_max;
	if (old.rlim_max < LIMIT)
		lim.rlim_cur = old.rlim_max;
	CHECK(setrlimit(RLIMIT_NOFILE, &lim) == 0);
	free_at_start = (int)lim.rlim_cur - fd_count();
	block_only(&mask);
	while (n < LIMIT && (fds[n] = sigfd(&mask, SIGFD_SHARE | SIGFD_NONBLOCK)) >= 0)
		n++;
	CHECK(n < LIMIT && errno == EMFILE);
	printf("%d share fds with %d numbers free at the start (limit %d)\n", n, free_at_start,
	       (int)lim.rlim_cur);
	CHECK(n >= free_at_start - 2 || n >= (int)lim.rlim_cur - 20);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(poll_events(fds[0], POLLIN, 10000) & POLLIN);
	CHECK(read_one(fds[0]).ssi_signo == SIGUSR1);
	while (n > 0)
		CHECK(close(fds[--n]) == 0);
	CHECK(setrlimit(RLIMIT_NOFILE, &old) == 0);
	return 0;
}
