/* SPDX-License-Identifier: MIT */
/* sigfd_setmask() errors: EBADF for a descriptor that is not open (closed,
 * or negative); EINVAL for an open descriptor that is not a sigfd (a pipe,
 * a regular file) and for a NULL mask. A failed call leaves the sigfd's mask
 * as it was. */
#include <fcntl.h>

#include "check.h"

static void fails(int fd, const sigset_t *mask, int err)
{
	errno = 0;
	if (sigfd_setmask(fd, mask) != -1 || errno != err) {
		fprintf(stderr, "sigfd_setmask(%d, %p): want -1/%s, got errno %d (%s)\n", fd,
			(const void *)mask, strerror(err), errno, strerror(errno));
		exit(1);
	}
}

int main(void)
{
	sigset_t usr1 = set_of(SIGUSR1), usr2 = set_of(SIGUSR2);
	sigset_t both = usr1;
	sigaddset(&both, SIGUSR2);
	block_only(&both);

	/* Closed: a sigfd that was closed, so the number was really a sigfd. */
	int fd = sigfd(&usr1, test_mode());
	CHECK(fd >= 0);
	CHECK(close(fd) == 0);
	fails(fd, &usr2, EBADF);
	fails(-1, &usr2, EBADF);
	fails(fd, NULL, EBADF); /* the descriptor is checked first */

	int p[2];
	CHECK(pipe(p) == 0);
	fails(p[0], &usr2, EINVAL);
	fails(p[1], &usr2, EINVAL);
	CHECK(close(p[0]) == 0 && close(p[1]) == 0);

	char path[] = "/tmp/sigfd-errors-setmask-XXXXXX";
	int file = mkstemp(path);
	CHECK(file >= 0);
	CHECK(unlink(path) == 0);
	fails(file, &usr2, EINVAL);
	CHECK(close(file) == 0);

	int devnull = open("/dev/null", O_RDWR);
	CHECK(devnull >= 0);
	fails(devnull, &usr2, EINVAL);
	CHECK(close(devnull) == 0);

	/* NULL mask on a real sigfd: EINVAL, and the mask is unchanged. */
	fd = sigfd(&usr1, SIGFD_NONBLOCK | test_mode());
	CHECK(fd >= 0);
	fails(fd, NULL, EINVAL);
	CHECK(test_mode() || fdinfo_sigmask(fd) == sigbit(SIGUSR1));
	CHECK(kill(getpid(), SIGUSR1) == 0);
	settle(fd, &usr1);
	CHECK(read_one(fd).ssi_signo == SIGUSR1);
	CHECK(close(fd) == 0);
	return 0;
}
