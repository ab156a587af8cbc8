/* SPDX-License-Identifier: MIT */
/* Two creators' exits on one CPU keep their records apart. Creator A exits
 * with BIG signals pending, creator B with SMALL; both run on CPU 0, B at a
 * real-time priority, told to exit while A's exit may be handing its queue
 * over. Under PREEMPT_RT (make kmod-rt-check) a held siglock does not
 * keep B off the CPU, so B's exit can run in the middle of A's; each
 * descriptor must still read exactly its own creator's records, in order,
 * then end of file. Elsewhere B waits for A's hand-over to end. A first
 * round without B times A's exit; B's moment then moves across it. */
#include <sched.h>
#include <sys/resource.h>

#include "kmod_util.h"
#include "creator_util.h"

#define BIG 10000
#define SMALL 200
#define B_VALUES 1000000
#define ROUNDS 20

static void on_cpu(pid_t pid, int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	CHECK(sched_setaffinity(pid, sizeof one, &one) == 0);
}

static void queue_values(pid_t pid, int first, int count)
{
	for (int i = 0; i < count; i++)
		CHECK(sigqueue(pid, SIGRTMIN, int_val(first + i)) == 0);
}

/* The descriptor gives exactly first..first+count-1, then end of file. */
static void read_exactly(int fd, int first, int count, const char *who)
{
	struct sigfd_siginfo r;
	ssize_t n;
	int got = 0;

	while ((n = read(fd, &r, sizeof r)) > 0) {
		CHECK(n == sizeof r && r.ssi_signo == (uint32_t)SIGRTMIN);
		if (got >= count || r.ssi_int != first + got) {
			fprintf(stderr, "%s's descriptor: record %d is %d, want %d of %d..%d\n", who,
				got, r.ssi_int, first + got, first, first + count - 1);
			exit(1);
		}
		got++;
	}
	CHECK(n == 0);
	if (got != count) {
		fprintf(stderr, "%s's descriptor: %d records, want %d\n", who, got, count);
		exit(1);
	}
}

/* One round; B is told to exit @delay_us after A is (no B if negative).
 * The microseconds from A's go to its reap. */
static double one_round(double delay_us)
{
	struct sched_param rt = { .sched_priority = 50 };
	int a_fd, a_go, b_fd = -1, b_go = -1;
	pid_t a = fork_creator(bit(SIGRTMIN), 0, &a_fd, &a_go), b = 0;
	double t0, t1;

	on_cpu(a, 0);
	queue_values(a, 0, BIG);
	if (delay_us >= 0) {
		b = fork_creator(bit(SIGRTMIN), 0, &b_fd, &b_go);
		on_cpu(b, 0);
		CHECK(sched_setscheduler(b, SCHED_FIFO, &rt) == 0);
		queue_values(b, B_VALUES, SMALL);
	}
	t0 = now_us();
	put_byte(a_go);
	if (b) {
		long long ns = (long long)((t0 + delay_us) * 1000);
		struct timespec at = { ns / 1000000000, ns % 1000000000 };

		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL) == EINTR)
			;
		put_byte(b_go); /* B, woken on CPU 0, runs before A there */
	}
	reap_ok(a);
	t1 = now_us();
	read_exactly(a_fd, 0, BIG, "A");
	CHECK(close(a_fd) == 0 && close(a_go) == 0);
	if (b) {
		reap_ok(b);
		read_exactly(b_fd, B_VALUES, SMALL, "B");
		CHECK(close(b_fd) == 0 && close(b_go) == 0);
	}
	return t1 - t0;
}

int main(void)
{
	struct rlimit many = { 4 * BIG, 4 * BIG };
	sigset_t rt = set_of(SIGRTMIN);
	int fds_before = fd_count();
	double exit_us;

	block_only(&rt);
	CHECK(setrlimit(RLIMIT_SIGPENDING, &many) == 0);
	CHECK(sysconf(_SC_NPROCESSORS_ONLN) >= 2);
	on_cpu(0, 1); /* we tell B when, from the other CPU */
	exit_us = one_round(-1);
	for (int i = 0; i < ROUNDS; i++)
		one_round(exit_us * 1.5 * i / ROUNDS);
	CHECK(fd_count() == fds_before);
	printf("hand_over_preempted: %d rounds, B's exit across A's (%.0f us from go to reap)\n",
	       ROUNDS, exit_us);
	return 0;
}
