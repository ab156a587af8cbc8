/* SPDX-License-Identifier: MIT */
/* A signal just read from a share fd (blocked, default action) is given a
 * handler and unblocked in the main thread; the next instance, sent by
 * another process, reaches the handler and never the descriptor. A cached
 * answer about the signal's action (issue 25: kept up to a clock tick) let
 * the forwarding thread take it (67-141 of 200). Each round: SIG_DFL and
 * blocked, one SIGUSR2 read from the fd; then a handler and unblocked, one
 * SIGUSR2 that the handler must get. The user-space backend's rule
 * (sigfd(3)). */
#include "unblocked_rounds.h"

int main(void)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL }, handler = { .sa_handler = handled_by_handler };
	sigset_t mask = set_of(SIGUSR2);
	int go[2], fd, rounds = 0, stolen = 0;
	double t0 = unblocked_now();
	pid_t me = getpid(), sender;

	CHECK(pipe(handled_pipe()) == 0 && pipe(go) == 0);
	block_only(&mask);
	fd = sigfd(&mask, SIGFD_SHARE);
	CHECK(fd >= 0);
	sender = fork();
	CHECK(sender >= 0);
	if (sender == 0) {
		char c;

		CHECK(close(go[1]) == 0);
		while (read(go[0], &c, 1) == 1)
			CHECK(kill(me, SIGUSR2) == 0);
		_exit(0);
	}
	while (unblocked_round(rounds, t0)) {
		CHECK(sigaction(SIGUSR2, &dfl, NULL) == 0);
		put_byte(go[1]);
		CHECK(read_one(fd).ssi_signo == SIGUSR2);
		CHECK(sigaction(SIGUSR2, &handler, NULL) == 0);
		CHECK(sigprocmask(SIG_UNBLOCK, &mask, NULL) == 0);
		put_byte(go[1]);
		stolen += taken_or_handled(fd, SIGUSR2);
		CHECK(sigprocmask(SIG_BLOCK, &mask, NULL) == 0);
		rounds++;
	}
	CHECK(close(go[1]) == 0);
	reap_ok(sender);
	printf("%d of %d SIGUSR2s sent after the handler read from the descriptor\n", stolen, rounds);
	CHECK(stolen_counted(stolen) == 0);
	CHECK(close(fd) == 0);
	CHECK(close(go[0]) == 0);
	close_pair(handled_pipe());
	return 0;
}
