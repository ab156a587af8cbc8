/* SPDX-License-Identifier: MIT */
/* SIGFD_NONBLOCK and SIGFD_CLOEXEC are visible through fcntl() as
 * O_NONBLOCK and FD_CLOEXEC, each present exactly when asked for. */
#include <fcntl.h>

#include "check.h"

int main(void)
{
	sigset_t set = set_of(SIGUSR1);
	block_only(&set);
	for (unsigned long f = 0; f <= (SIGFD_NONBLOCK | SIGFD_CLOEXEC); f++) {
		int fd = sigfd(&set, f | test_mode());
		CHECK(fd >= 0);
		int fl = fcntl(fd, F_GETFL);
		int fdfl = fcntl(fd, F_GETFD);
		CHECK(fl >= 0 && fdfl >= 0);
		CHECK(!!(fl & O_NONBLOCK) == !!(f & SIGFD_NONBLOCK));
		CHECK(!!(fdfl & FD_CLOEXEC) == !!(f & SIGFD_CLOEXEC));
		/* The descriptor is readable. */
		CHECK((fl & O_ACCMODE) == O_RDONLY || (fl & O_ACCMODE) == O_RDWR);
		CHECK(close(fd) == 0);
	}

	/* O_NONBLOCK set later with fcntl() takes effect like the flag. */
	int fd = sigfd(&set, test_mode());
	CHECK(fd >= 0);
	CHECK(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == 0);
	struct sigfd_siginfo r;
	errno = 0;
	CHECK(read(fd, &r, sizeof r) == -1 && errno == EAGAIN);
	CHECK(close(fd) == 0);
	return 0;
}
