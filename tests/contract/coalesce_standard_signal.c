/* SPDX-License-Identifier: MIT */
/* A standard (non-real-time) signal sent several times while it is pending
 * is one pending signal: exactly one record. A real-time signal, by
 * contrast, queues one record per send. */
#include "check.h"

int main(void)
{
	sigset_t set = set_of(SIGUSR1);
	sigaddset(&set, SIGRTMIN);
	block_only(&set);
	int fd = sigfd(&set, SIGFD_NONBLOCK | test_mode());
	CHECK(fd >= 0);
	struct sigfd_siginfo r[8];

	for (int i = 0; i < 5; i++)
		CHECK(kill(getpid(), SIGUSR1) == 0);
	settle(fd, &set);
	CHECK(read(fd, r, sizeof r) == (ssize_t)sizeof r[0]);
	CHECK(r[0].ssi_signo == SIGUSR1);
	errno = 0;
	CHECK(read(fd, r, sizeof r) == -1 && errno == EAGAIN);

	/* Once read, the next send is a new record again. */
	CHECK(kill(getpid(), SIGUSR1) == 0);
	settle(fd, &set);
	CHECK(read(fd, r, sizeof r) == (ssize_t)sizeof r[0]);
	CHECK(r[0].ssi_signo == SIGUSR1);

	for (int i = 0; i < 5; i++)
		CHECK(kill(getpid(), SIGRTMIN) == 0);
	settle(fd, &set);
	CHECK(read(fd, r, sizeof r) == (ssize_t)(5 * sizeof r[0]));
	for (int i = 0; i < 5; i++)
		CHECK(r[i].ssi_signo == (uint32_t)SIGRTMIN && r[i].ssi_code == SI_USER);
	CHECK(close(fd) == 0);
	return 0;
}
