/* SPDX-License-Identifier: MIT */
/* One read() with a big buffer returns every pending record at once, as
 * whole records: queued values of one real-time signal in the order they
 * were sent. (Lowest signal first: rt_lowest_first.c.) */
#include "check.h"

#define PER_SIGNAL 8

int main(void)
{
	sigset_t set;
	sigemptyset(&set);
	for (int n = 0; n < 3; n++)
		sigaddset(&set, SIGRTMIN + n);
	block_only(&set);
	int fd = sigfd(&set, SIGFD_NONBLOCK | test_mode());
	CHECK(fd >= 0);

	for (int n = 0; n < 3; n++)
		for (int i = 0; i < PER_SIGNAL; i++) {
			CHECK(sigqueue(getpid(), SIGRTMIN + n, int_val(n * 100 + i)) == 0);
		}

	struct sigfd_siginfo r[3 * PER_SIGNAL + 10];
	settle(fd, &set);
	ssize_t len = read(fd, r, sizeof r);
	CHECK(len == (ssize_t)(3 * PER_SIGNAL * sizeof r[0]));
	for (int n = 0; n < 3; n++)
		for (int i = 0; i < PER_SIGNAL; i++) {
			const struct sigfd_siginfo *x = &r[n * PER_SIGNAL + i];
			CHECK(x->ssi_signo == (uint32_t)(SIGRTMIN + n));
			CHECK(x->ssi_code == SI_QUEUE);
			CHECK(x->ssi_int == n * 100 + i);
			CHECK(x->ssi_pid == (uint32_t)getpid());
		}
	errno = 0;
	CHECK(read(fd, r, sizeof r) == -1 && errno == EAGAIN);

	/* A buffer of exactly two records takes two and leaves the rest. */
	for (int i = 0; i < 3; i++) {
		CHECK(sigqueue(getpid(), SIGRTMIN, int_val(i)) == 0);
	}
	settle(fd, &set);
	CHECK(read(fd, r, 2 * sizeof r[0]) == (ssize_t)(2 * sizeof r[0]));
	CHECK(r[0].ssi_int == 0 && r[1].ssi_int == 1);
	CHECK(read(fd, r, sizeof r) == (ssize_t)sizeof r[0]);
	CHECK(r[0].ssi_int == 2);
	CHECK(close(fd) == 0);
	return 0;
}
