/* SPDX-License-Identifier: MIT */
/* What one signal costs the sender with 0, 1 and 1,024 descriptors open
 * on the creator (the most it may have). Every signal queued is dequeued again (checked); the
 * figures are printed, never asserted: `make kmod-bench` shows them with
 * their ratio. With arguments, the descriptor counts to measure. */
#include <sys/resource.h>

#include "kmod_util.h"
#include "creator_util.h"

#define BATCH 250
#define ROUNDS 4

/* Mean microseconds per sigqueue() to ourselves with n descriptors open. */
static double cost_with(int n)
{
	sigset_t rt = set_of(SIGRTMIN);
	struct timespec zero = { 0, 0 };
	int *fds = calloc(n ? n : 1, sizeof *fds);
	double spent = 0;
	siginfo_t si;

	CHECK(fds != NULL);
	for (int i = 0; i < n; i++)
		CHECK((fds[i] = raw_create(bit(SIGRTMIN), SIGFD_KF_NONBLOCK)) >= 0);
	for (int round = 0; round < ROUNDS; round++) {
		double t0 = now_us();
		for (int i = 0; i < BATCH; i++)
			CHECK(sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = i }) == 0);
		spent += now_us() - t0;
		for (int i = 0; i < BATCH; i++) {
			CHECK(sigtimedwait(&rt, &si, &zero) == SIGRTMIN);
			CHECK(si.si_value.sival_int == i);
		}
	}
	for (int i = 0; i < n; i++)
		CHECK(close(fds[i]) == 0);
	free(fds);
	return spent / (ROUNDS * BATCH);
}

int main(int argc, char **argv)
{
	int counts[8] = { 0, 1, 1024 }, ncounts = 3, fds_before = fd_count();
	sigset_t rt = set_of(SIGRTMIN);
	struct rlimit nofile = { 2048, 2048 }, sigpending = { 100000, 100000 };
	double base = 0, one = 0;

	if (argc > 1) {
		ncounts = 0;
		for (int i = 1; i < argc && ncounts < 8; i++)
			counts[ncounts++] = atoi(argv[i]);
	}
	block_only(&rt);
	CHECK(setrlimit(RLIMIT_NOFILE, &nofile) == 0);
	CHECK(setrlimit(RLIMIT_SIGPENDING, &sigpending) == 0);
	for (int i = 0; i < ncounts; i++) {
		double us = cost_with(counts[i]);
		if (counts[i] == 0)
			base = us;
		if (counts[i] == 1)
			one = us;
		printf("signal cost with %6d descriptors: %8.2f us", counts[i], us);
		if (one > 0 && counts[i] > 1)
			printf("  (%.2fx the cost with 1)", us / one);
		else if (base > 0 && counts[i] == 1)
			printf("  (%.2fx the cost with none)", us / base);
		printf("\n");
	}
	CHECK(fd_count() == fds_before);
	return 0;
}
