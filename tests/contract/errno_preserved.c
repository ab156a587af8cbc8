/* SPDX-License-Identifier: MIT */
/* Successful calls leave errno alone: sigfd() and sigfd_setmask() that
 * succeed do not overwrite a value the caller set. */
#include "check.h"

int main(void)
{
	sigset_t set = set_of(SIGUSR1);
	block_only(&set);
	for (unsigned long f = 0; f <= (SIGFD_NONBLOCK | SIGFD_CLOEXEC); f++) {
		errno = 4242;
		int fd = sigfd(&set, f | test_mode());
		CHECK(fd >= 0);
		CHECK(errno == 4242);
		errno = 4343;
		CHECK(sigfd_setmask(fd, &set) == 0);
		CHECK(errno == 4343);
		CHECK(close(fd) == 0);
	}
	return 0;
}
