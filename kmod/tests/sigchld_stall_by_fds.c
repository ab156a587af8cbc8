/* SPDX-License-Identifier: MIT */
/* What a creator's descriptors cost unrelated processes: the creator holds
 * 0, 1 or 1,024 descriptors (the most it may have) for SIGCHLD and forks
 * and reaps children, so each child's exit signals it from exit_notify()
 * with tasklist_lock held for writing; meanwhile another process runs
 * fork+exit+wait. Its worst and mean round are printed, never asserted
 * (`make kmod-bench`); every round and every SIGCHLD is checked. With
 * arguments, the counts. */
#include <sys/resource.h>

#include "kmod_util.h"
#include "creator_util.h"

#define CHILDREN 300
#define ROUNDS 300

/* The bystander: fork+exit+wait rounds; writes worst and mean (us). */
static void bystander(int out, int start)
{
	double worst = 0, total = 0, t[2];
	char c;

	CHECK(read(start, &c, 1) == 1);
	for (int i = 0; i < ROUNDS; i++) {
		pid_t p;

		t[0] = now_us();
		p = fork();
		CHECK(p >= 0);
		if (p == 0)
			_exit(0);
		reap_ok(p);
		t[1] = now_us() - t[0];
		total += t[1];
		if (t[1] > worst)
			worst = t[1];
	}
	t[0] = worst;
	t[1] = total / ROUNDS;
	CHECK(write(out, t, sizeof t) == sizeof t);
	_exit(0);
}

static void stall_with(int n)
{
	sigset_t chld = set_of(SIGCHLD);
	struct timespec zero = { 0, 0 };
	int *fds = calloc(n ? n : 1, sizeof *fds), result[2], start[2];
	double t[2];
	siginfo_t si;
	pid_t by;

	CHECK(fds != NULL && pipe(result) == 0 && pipe(start) == 0);
	by = fork();
	CHECK(by >= 0);
	if (by == 0)
		bystander(result[1], start[0]);
	for (int i = 0; i < n; i++)
		CHECK((fds[i] = raw_create(bit(SIGCHLD), SIGFD_KF_NONBLOCK)) >= 0);
	put_byte(start[1]);
	for (int i = 0; i < CHILDREN; i++) {
		pid_t p = fork();

		CHECK(p >= 0);
		if (p == 0)
			_exit(0);
		reap_ok(p);
		/* Take it, so the next exit queues (and wakes) again. */
		CHECK(sigtimedwait(&chld, &si, &zero) == SIGCHLD);
	}
	CHECK(read(result[0], t, sizeof t) == sizeof t);
	reap_ok(by);
	while (sigtimedwait(&chld, &si, &zero) == SIGCHLD)
		;
	printf("bystander fork+exit+wait with %5d descriptors on a busy creator: worst %8.0f us, mean %6.0f us\n",
	       n, t[0], t[1]);
	for (int i = 0; i < n; i++)
		CHECK(close(fds[i]) == 0);
	free(fds);
	CHECK(close(result[0]) == 0 && close(result[1]) == 0);
	CHECK(close(start[0]) == 0 && close(start[1]) == 0);
}

int main(int argc, char **argv)
{
	int counts[8] = { 0, 1, 1024 }, ncounts = 3, fds_before = fd_count();
	struct rlimit nofile = { 2048, 2048 };
	sigset_t chld = set_of(SIGCHLD);

	if (argc > 1) {
		ncounts = 0;
		for (int i = 1; i < argc && ncounts < 8; i++)
			counts[ncounts++] = atoi(argv[i]);
	}
	block_only(&chld);
	CHECK(setrlimit(RLIMIT_NOFILE, &nofile) == 0);
	for (int i = 0; i < ncounts; i++)
		stall_with(counts[i]);
	CHECK(fd_count() == fds_before);
	return 0;
}
