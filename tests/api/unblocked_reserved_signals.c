/* SPDX-License-Identifier: MIT */
/* sigfd_unblocked_threads() asks about the signals sigfd() would take: of
 * a mask with every bit set (memset 0xff), not the C library's reserved
 * ones (32 and 33 in glibc), which no thread can block and sigfd() drops.
 * With every signal blocked, no thread leaves one unblocked: it counted
 * every thread. errno is kept. */
#include "check.h"

int main(void)
{
	sigset_t every, all;

	memset(&every, 0xff, sizeof every);
	CHECK(sigfillset(&all) == 0);
	block_only(&all);
	/* Not the real-time signals: valgrind keeps one of them for itself
	 * (SigBlk never has it). The reserved ones are below SIGRTMIN. */
	for (int sig = SIGRTMIN; sig < NSIG; sig++)
		CHECK(sigdelset(&every, sig) == 0 && sigdelset(&all, sig) == 0);
	errno = EDOM;
	CHECK(sigfd_unblocked_threads(&all, NULL, 0) == 0);
	int n = sigfd_unblocked_threads(&every, NULL, 0);
	if (n != 0)
		fprintf(stderr, "a mask of every bit: %d thread(s) unblocked\n", n);
	CHECK(n == 0);
	CHECK(errno == EDOM);
	return 0;
}
