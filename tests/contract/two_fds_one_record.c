/* SPDX-License-Identifier: MIT */
/* Two sigfds with the same mask in one process: both are readable while the
 * signal is pending, but a signal is one pending signal, so there is exactly
 * one record in total, for whichever reads first. */
#include "check.h"

int main(void)
{
	sigset_t set = set_of(SIGUSR1);
	sigaddset(&set, SIGRTMIN);
	block_only(&set);
	int a = sigfd(&set, SIGFD_NONBLOCK | test_mode());
	int b = sigfd(&set, SIGFD_NONBLOCK | test_mode());
	CHECK(a >= 0 && b >= 0 && a != b);
	struct sigfd_siginfo r[4];

	for (int round = 0; round < 2; round++) {
		int first = round ? b : a, second = round ? a : b;
		CHECK(kill(getpid(), SIGUSR1) == 0);
		CHECK(poll_events(a, POLLIN, 0) == POLLIN);
		CHECK(poll_events(b, POLLIN, 0) == POLLIN);
		CHECK(read(first, r, sizeof r) == (ssize_t)sizeof r[0]);
		CHECK(r[0].ssi_signo == SIGUSR1);
		CHECK(poll_events(a, POLLIN, 0) == 0);
		CHECK(poll_events(b, POLLIN, 0) == 0);
		errno = 0;
		CHECK(read(second, r, sizeof r) == -1 && errno == EAGAIN);
	}

	/* Queued real-time signals are shared out, each read once. */
	for (int i = 0; i < 3; i++) {
		CHECK(sigqueue(getpid(), SIGRTMIN, int_val(i)) == 0);
	}
	CHECK(read(a, r, sizeof r[0]) == (ssize_t)sizeof r[0]);
	CHECK(r[0].ssi_int == 0);
	CHECK(read(b, r, sizeof r) == (ssize_t)(2 * sizeof r[0]));
	CHECK(r[0].ssi_int == 1 && r[1].ssi_int == 2);
	errno = 0;
	CHECK(read(a, r, sizeof r) == -1 && errno == EAGAIN);
	CHECK(close(a) == 0 && close(b) == 0);
	return 0;
}
