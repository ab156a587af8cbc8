/* SPDX-License-Identifier: MIT */
/* SIGFD_BACKEND concerns share mode only: local mode ignores it, even a
 * value that share mode rejects. In share mode an unknown value is EINVAL,
 * and "kernel" without the module's /dev/sigfd is ENOSYS. No share-mode
 * descriptor is ever created here: each call must fail. */
#include <fcntl.h>

#include "check.h"

int main(void)
{
	sigset_t set = set_of(SIGUSR1);
	block_only(&set);

	CHECK(setenv("SIGFD_BACKEND", "no-such-backend", 1) == 0);
	int fd = sigfd(&set, SIGFD_NONBLOCK);
	CHECK(fd >= 0);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(read_one(fd).ssi_signo == SIGUSR1);
	CHECK(close(fd) == 0);

	errno = 0;
	CHECK(sigfd(&set, SIGFD_SHARE) == -1);
	CHECK(errno == EINVAL);

	/* Only meaningful while the module is not loaded. */
	if (access("/dev/sigfd", F_OK) != 0) {
		CHECK(setenv("SIGFD_BACKEND", "kernel", 1) == 0);
		errno = 0;
		CHECK(sigfd(&set, SIGFD_SHARE) == -1);
		CHECK(errno == ENOSYS);
		/* Local mode is the kernel's signalfd, module or not. */
		fd = sigfd(&set, 0);
		CHECK(fd >= 0);
		CHECK(close(fd) == 0);
	}
	CHECK(unsetenv("SIGFD_BACKEND") == 0);
	return 0;
}
