/* SPDX-License-Identifier: MIT */
/* At least 20,000 RT signals from a third process to the creator while the
 * reader is deliberately behind: every value arrives exactly once, in order.
 * The creator's RLIMIT_SIGPENDING is lowered so the kernel queue fills; the
 * reader starts only once the sender has been refused (back-pressure), so
 * signals wait in the kernel queue rather than being dropped or buffered.
 * What the share fd itself holds before that depends on the machine
 * (net.core.wmem_max), so the sender goes on until it is refused and then
 * ends with a value of -1.
 * run-alone: its limit of 500 counts the signals queued by every process
 * of the user. */
#include <sched.h>
#include <sys/resource.h>

#include "share_util.h"

#define COUNT 20000
#define NEVER_REFUSED 2000000 /* far past any socket's room: a leak */

static void queue_until_taken(pid_t to, int value)
{
	while (sigqueue(to, SIGRTMIN, (union sigval){ .sival_int = value }) < 0) {
		CHECK(errno == EAGAIN);
		sched_yield();
	}
}

int main(void)
{
	sigset_t mask = set_of(SIGRTMIN);
	struct rlimit lim;
	int full[2], who[2], fd;
	pid_t creator = getpid(), reader, sender;

	block_only(&mask);
	CHECK(getrlimit(RLIMIT_SIGPENDING, &lim) == 0);
	lim.rlim_cur = 500;
	CHECK(setrlimit(RLIMIT_SIGPENDING, &lim) == 0);
	CHECK(pipe(full) == 0 && pipe(who) == 0);
	fd = sigfd(&mask, SIGFD_SHARE);
	CHECK(fd >= 0);

	reader = fork();
	CHECK(reader >= 0);
	if (reader == 0) {
		char c;
		pid_t from;
		struct sigfd_siginfo recs[16];
		int next = 0;

		CHECK(read(who[0], &from, sizeof from) == (ssize_t)sizeof from);
		CHECK(read(full[0], &c, 1) == 1); /* the kernel queue is full */
		for (;;) {
			ssize_t n = read(fd, recs, sizeof recs);
			CHECK(n > 0 && n % 128 == 0);
			for (ssize_t k = 0; k < n / 128; k++) {
				CHECK(recs[k].ssi_pid == (uint32_t)from);
				if (recs[k].ssi_int == -1) {
					CHECK(k == n / 128 - 1);
					CHECK(next >= COUNT);
					_exit(0);
				}
				CHECK(recs[k].ssi_int == next);
				next++;
			}
		}
	}
	sender = fork();
	CHECK(sender >= 0);
	if (sender == 0) {
		int sent = 0, refused = 0;

		while (sent < COUNT || !refused) {
			CHECK(sent < NEVER_REFUSED);
			if (sigqueue(creator, SIGRTMIN,
				     (union sigval){ .sival_int = sent }) == 0) {
				sent++;
				continue;
			}
			CHECK(errno == EAGAIN);
			if (!refused++)
				CHECK(write(full[1], "f", 1) == 1);
			sched_yield();
		}
		queue_until_taken(creator, -1);
		_exit(0);
	}
	CHECK(write(who[1], &sender, sizeof sender) == (ssize_t)sizeof sender);
	reap_ok(sender);
	reap_ok(reader);
	CHECK(close(fd) == 0);
	close_pair(full);
	close_pair(who);
	return 0;
}
