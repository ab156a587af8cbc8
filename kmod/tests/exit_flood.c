/* SPDX-License-Identifier: MIT */
/* Issue 16's contract at the creator's end, under a flood: a sender keeps
 * queueing SIGRTMIN, numbered 0, 1, 2, ..., to a creator that exits while
 * it does. What was pending at the exit goes to the descriptor in one step
 * and nothing sent later does: the records read are exactly 0..k-1, in
 * order, with k no more than the sender got queued, then end of file. The
 * flood cannot stretch the exit: the time from the creator's go to its reap
 * is printed beside that of a creator without a descriptor (figures, not
 * checks: RLIMIT_SIGPENDING at LIMIT keeps its queue full). */
#include <sys/resource.h>

#include "kmod_util.h"
#include "creator_util.h"

#define LIMIT 20000
#define ROUNDS 5

/* One creator, with a descriptor or not, flooded until it is reaped: the
 * milliseconds from its go to its reap; the records in *got. */
static double round_ms(int with_fd, int *got)
{
	int go, counted[2], fd, sent;
	pid_t creator = fork_creator(with_fd ? bit(SIGRTMIN) : 0, 0, &fd, &go), sender;
	struct sigfd_siginfo r;
	double t0, t1;
	ssize_t n;

	CHECK(pipe(counted) == 0);
	sender = fork();
	CHECK(sender >= 0);
	if (sender == 0) {
		/* Half fill the queue, say so, and go on until killed. */
		sent = 0;
		while (sigqueue(creator, SIGRTMIN, int_val(sent)) == 0 || errno == EAGAIN) {
			if (errno != EAGAIN)
				sent++;
			if (sent == LIMIT / 2)
				put_byte(counted[1]);
			errno = 0;
		}
		_exit(1);
	}
	get_byte(counted[0]);
	t0 = now_us();
	put_byte(go);
	reap_ok(creator);
	t1 = now_us();
	CHECK(kill(sender, SIGKILL) == 0);
	CHECK(waitpid(sender, NULL, 0) == sender);
	*got = 0;
	if (with_fd) {
		while ((n = read(fd, &r, sizeof r)) > 0) {
			CHECK(n == sizeof r && r.ssi_signo == (uint32_t)SIGRTMIN);
			CHECK(r.ssi_int == *got);
			++*got;
		}
		CHECK(n == 0);
		CHECK(*got >= LIMIT / 2 && *got <= LIMIT);
		CHECK(close(fd) == 0);
	}
	CHECK(close(go) == 0);
	close_pair(counted);
	return (t1 - t0) / 1e3;
}

int main(void)
{
	struct rlimit lim = { LIMIT, LIMIT };
	int fds_before = fd_count(), got;
	sigset_t rt = set_of(SIGRTMIN);
	double with = 0, without = 0;

	block_only(&rt);
	CHECK(setrlimit(RLIMIT_SIGPENDING, &lim) == 0);
	for (int i = 0; i < ROUNDS; i++) {
		without += round_ms(0, &got);
		with += round_ms(1, &got);
	}
	printf("exit_flood: a creator's exit to its reap under a SIGRTMIN flood (RLIMIT_SIGPENDING %d), "
	       "mean of %d: %.1f ms with a descriptor (%d records handed over in the last), %.1f ms without\n",
	       LIMIT, ROUNDS, with / ROUNDS, got, without / ROUNDS);
	CHECK(fd_count() == fds_before);
	return 0;
}
