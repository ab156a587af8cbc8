/* SPDX-License-Identifier: MIT */
/* A mask with every bit set (memset 0xff: bits beyond the signals, and the
 * C library's reserved ones, 32 and 33 in glibc, which sigaddset()
 * refuses) is taken as every catchable signal, and the successful
 * sigfd() and sigfd_setmask() leave errno as it was: copying the mask
 * left EINVAL from the refused sigaddset(). */
#include "check.h"

int main(void)
{
	sigset_t every, all;
	int fd;

	memset(&every, 0xff, sizeof every);
	CHECK(sigfillset(&all) == 0);
	block_only(&all);
	errno = EDOM;
	fd = sigfd(&every, SIGFD_NONBLOCK | test_mode());
	CHECK(fd >= 0);
	CHECK(errno == EDOM);
	errno = EDOM;
	CHECK(sigfd_setmask(fd, &every) == 0);
	CHECK(errno == EDOM);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	settle(fd, &all);
	CHECK(read_one(fd).ssi_signo == SIGUSR1);
	CHECK(close(fd) == 0);
	return 0;
}
