/* SPDX-License-Identifier: MIT */
/* With SIGFD_NONBLOCK, read() with nothing pending fails with EAGAIN at
 * once, before and after a record was read. */
#include <fcntl.h>

#include "check.h"

int main(void)
{
	sigset_t set = set_of(SIGUSR1);
	block_only(&set);
	int fd = sigfd(&set, SIGFD_NONBLOCK | test_mode());
	CHECK(fd >= 0);
	struct sigfd_siginfo r;

	errno = 0;
	CHECK(read(fd, &r, sizeof r) == -1);
	CHECK(errno == EAGAIN);

	CHECK(kill(getpid(), SIGUSR1) == 0);
	settle(fd, &set);
	r = read_one(fd);
	CHECK(r.ssi_signo == SIGUSR1);

	errno = 0;
	CHECK(read(fd, &r, sizeof r) == -1);
	CHECK(errno == EAGAIN);

	/* A big buffer with nothing pending: EAGAIN too, not 0. */
	char big[16 * sizeof r];
	errno = 0;
	CHECK(read(fd, big, sizeof big) == -1);
	CHECK(errno == EAGAIN);
	CHECK(close(fd) == 0);
	return 0;
}
