/* SPDX-License-Identifier: MIT */
/* 10,000 real-time signals queued by another process all arrive, each
 * exactly once and in the order sent, read in batches. Flow control keeps
 * the sender under RLIMIT_SIGPENDING (shared by every process of the user):
 * it waits for the reader's acknowledgement every BATCH signals, and if
 * sigqueue() still says EAGAIN (other processes' queued signals) it yields
 * and retries while the reader drains. */
#include <sched.h>
#include <sys/resource.h>

#include "check.h"

#define TOTAL 10000

int main(void)
{
	sigset_t set = set_of(SIGRTMIN);
	block_only(&set);
	int fd = sigfd(&set, test_mode());
	CHECK(fd >= 0);

	int batch = 256;
	struct rlimit rl;
	CHECK(getrlimit(RLIMIT_SIGPENDING, &rl) == 0);
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur / 4 < (rlim_t)batch)
		batch = rl.rlim_cur / 4 > 0 ? (int)(rl.rlim_cur / 4) : 1;

	int ack[2];
	CHECK(pipe(ack) == 0);
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		pid_t ppid = getppid();
		CHECK(close(ack[1]) == 0);
		for (int i = 0; i < TOTAL; i++) {
			while (sigqueue(ppid, SIGRTMIN, int_val(i)) != 0) {
				CHECK(errno == EAGAIN);
				sched_yield();
			}
			if ((i + 1) % batch == 0 && i + 1 < TOTAL)
				get_byte(ack[0]);
		}
		_exit(0);
	}
	CHECK(close(ack[0]) == 0);

	static struct sigfd_siginfo r[64];
	int got = 0;
	while (got < TOTAL) {
		ssize_t n = read(fd, r, sizeof r);
		CHECK(n > 0 && n % (ssize_t)sizeof r[0] == 0);
		for (ssize_t k = 0; k < n / (ssize_t)sizeof r[0]; k++) {
			if (r[k].ssi_signo != (uint32_t)SIGRTMIN || r[k].ssi_code != SI_QUEUE ||
			    r[k].ssi_pid != (uint32_t)pid || r[k].ssi_int != got) {
				fprintf(stderr, "record %d: signo %u code %d pid %u int %d\n", got,
					r[k].ssi_signo, r[k].ssi_code, r[k].ssi_pid, r[k].ssi_int);
				exit(1);
			}
			got++;
			if (got % batch == 0 && got < TOTAL)
				put_byte(ack[1]);
		}
	}
	reap_ok(pid);
	/* Nothing more: no duplicate, nothing extra. */
	CHECK(poll_events(fd, POLLIN, 0) == 0);
	CHECK(close(ack[1]) == 0);
	CHECK(close(fd) == 0);
	return 0;
}
