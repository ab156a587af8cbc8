/* SPDX-License-Identifier: MIT */
/* Errors and the raw interface: a buffer under 128 bytes is EINVAL, an
 * empty O_NONBLOCK descriptor EAGAIN, write() EINVAL; unknown flags, a short
 * or unknown-tailed parameter block are refused, a longer block with a zero
 * tail is accepted (versioning); ioctls go to the right file only; setmask
 * from a process other than the creator's is EPERM and changes nothing. */
#include "kmod_util.h"

int main(void)
{
	sigset_t usr1 = set_of(SIGUSR1), usr2 = set_of(SIGUSR2), both;
	struct sigfd_siginfo r[2];
	char small[127];
	int fd, dev;

	sigemptyset(&both);
	sigaddset(&both, SIGUSR1);
	sigaddset(&both, SIGUSR2);
	block_only(&both);

	fd = raw_create(bit(SIGUSR1), SIGFD_KF_NONBLOCK | SIGFD_KF_CLOEXEC);
	CHECK(fd >= 0);
	assert_kernel_fd(fd);
	CHECK(fcntl(fd, F_GETFL) & O_NONBLOCK);
	CHECK(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	CHECK(read(fd, r, sizeof r) == -1 && errno == EAGAIN);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(read(fd, small, sizeof small) == -1 && errno == EINVAL);
	CHECK(pending_has(SIGUSR1)); /* the refused read took nothing */
	CHECK(read(fd, r, sizeof r) == 128 && r[0].ssi_signo == SIGUSR1);
	CHECK(write(fd, r, sizeof r[0]) == -1 && errno == EINVAL);
	CHECK(close(fd) == 0);

	fd = raw_create(bit(SIGUSR1), 0);
	CHECK(fd >= 0);
	CHECK(!(fcntl(fd, F_GETFL) & O_NONBLOCK) && !(fcntl(fd, F_GETFD) & FD_CLOEXEC));
	CHECK(close(fd) == 0);
	errno = 0;
	CHECK(raw_create(bit(SIGUSR1), 0x4) == -1 && errno == EINVAL);

	dev = open("/dev/sigfd", O_RDONLY | O_CLOEXEC);
	CHECK(dev >= 0);
	struct sigfd_params p = { .size = 8, .mask = bit(SIGUSR1) };
	errno = 0;
	CHECK(ioctl(dev, SIGFD_IOC_CREATE, &p) == -1 && errno == EINVAL);
	struct {
		struct sigfd_params p;
		uint64_t future;
	} big = { { .size = sizeof big, .mask = bit(SIGUSR1) }, 0 };
	fd = ioctl(dev, SIGFD_IOC_CREATE, &big);
	CHECK(fd >= 0);
	big.future = 1;
	errno = 0;
	CHECK(ioctl(dev, SIGFD_IOC_CREATE, &big) == -1 && errno == E2BIG);
	errno = 0;
	CHECK(ioctl(dev, SIGFD_IOC_CREATE, NULL) == -1 && errno == EFAULT);
	errno = 0;
	CHECK(ioctl(dev, SIGFD_IOC_SETMASK, &p) == -1 && errno == ENOTTY);
	p.size = sizeof p;
	errno = 0;
	CHECK(ioctl(fd, SIGFD_IOC_CREATE, &p) == -1 && errno == ENOTTY);
	p.flags = 1;
	errno = 0;
	CHECK(ioctl(fd, SIGFD_IOC_SETMASK, &p) == -1 && errno == EINVAL);
	CHECK(close(fd) == 0 && close(dev) == 0);

	/* Not a kernel sigfd: the library never sends it our ioctl. */
	int pfd[2];
	CHECK(pipe(pfd) == 0);
	errno = 0;
	CHECK(sigfd_setmask(pfd[0], &usr1) == -1 && errno == EINVAL);

	/* setmask: the creator's process only. */
	fd = sigfd(&usr1, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(fd >= 0);
	pid_t child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		errno = 0;
		CHECK(sigfd_setmask(fd, &usr2) == -1 && errno == EPERM);
		struct sigfd_params q = { .size = sizeof q, .mask = bit(SIGUSR2) };
		errno = 0;
		CHECK(ioctl(fd, SIGFD_IOC_SETMASK, &q) == -1 && errno == EPERM);
		_exit(0);
	}
	reap_ok(child);
	CHECK(fdinfo_mask(fd) == bit(SIGUSR1));
	CHECK(sigfd_setmask(fd, &usr2) == 0);
	CHECK(fdinfo_mask(fd) == bit(SIGUSR2));
	CHECK(kill(getpid(), SIGUSR2) == 0);
	CHECK(read_one(fd).ssi_signo == SIGUSR2);
	CHECK(close(fd) == 0);
	close_pair(pfd);
	return 0;
}
