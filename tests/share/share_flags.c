/* SPDX-License-Identifier: MIT */
/* Share-mode flags and errors: NONBLOCK gives EAGAIN when nothing is there,
 * NONBLOCK and CLOEXEC are visible through fcntl and absent unless asked;
 * bad flags and a NULL mask are refused as in local mode. */
#include <fcntl.h>

#include "share_util.h"

int main(void)
{
	sigset_t mask = set_of(SIGUSR1);
	struct sigfd_siginfo r;
	int plain, both;

	block_only(&mask);
	plain = sigfd(&mask, SIGFD_SHARE);
	both = sigfd(&mask, SIGFD_SHARE | SIGFD_NONBLOCK | SIGFD_CLOEXEC);
	CHECK(plain >= 0 && both >= 0);
	CHECK(!(fcntl(plain, F_GETFL) & O_NONBLOCK));
	CHECK(!(fcntl(plain, F_GETFD) & FD_CLOEXEC));
	CHECK(fcntl(both, F_GETFL) & O_NONBLOCK);
	CHECK(fcntl(both, F_GETFD) & FD_CLOEXEC);
	CHECK(read(both, &r, sizeof r) == -1 && errno == EAGAIN);

	errno = 0;
	CHECK(sigfd(&mask, SIGFD_SHARE | 0x100) == -1 && errno == EINVAL);
	errno = 0;
	CHECK(sigfd(NULL, SIGFD_SHARE) == -1 && errno == EINVAL);
	errno = 0;
	CHECK(sigfd_setmask(plain, NULL) == -1 && errno == EINVAL);
	CHECK(close(plain) == 0 && close(both) == 0);
	return 0;
}
