/* SPDX-License-Identifier: MIT */
/* The parameter block's .size is bounded by a page, as openat2() and
 * clone3() bound theirs: a page with a zero tail is accepted, a byte more
 * is E2BIG, and 1 GiB is E2BIG at once, without the module reading it
 * (the buffer behind it is far shorter, so a read would be EFAULT). A
 * refused SETMASK loses no pending signal and changes no mask. */
#include "kmod_util.h"

#define PAGE 4096

int main(void)
{
	static uint64_t block[2 * PAGE / sizeof(uint64_t)];
	struct sigfd_params *p = (struct sigfd_params *)block;
	sigset_t usr1 = set_of(SIGUSR1);
	int fds_before = fd_count(), dev, fd;

	CHECK(sysconf(_SC_PAGESIZE) == PAGE);
	block_only(&usr1);
	dev = open("/dev/sigfd", O_RDONLY | O_CLOEXEC);
	CHECK(dev >= 0);

	p->size = PAGE;
	p->mask = bit(SIGUSR1);
	fd = ioctl(dev, SIGFD_IOC_CREATE, p);
	CHECK(fd >= 0);
	assert_kernel_fd(fd);
	p->size = PAGE + 1;
	errno = 0;
	CHECK(ioctl(dev, SIGFD_IOC_CREATE, p) == -1 && errno == E2BIG);
	p->size = 1u << 30;
	errno = 0;
	CHECK(ioctl(dev, SIGFD_IOC_CREATE, p) == -1 && errno == E2BIG);
	p->size = UINT32_MAX;
	errno = 0;
	CHECK(ioctl(dev, SIGFD_IOC_CREATE, p) == -1 && errno == E2BIG);

	CHECK(kill(getpid(), SIGUSR1) == 0);
	p->size = 1u << 30;
	p->mask = bit(SIGUSR2);
	errno = 0;
	CHECK(ioctl(fd, SIGFD_IOC_SETMASK, p) == -1 && errno == E2BIG);
	CHECK(fdinfo_mask(fd) == bit(SIGUSR1));
	CHECK(read_one(fd).ssi_signo == SIGUSR1);
	p->size = PAGE;
	CHECK(ioctl(fd, SIGFD_IOC_SETMASK, p) == 0);
	CHECK(fdinfo_mask(fd) == bit(SIGUSR2));

	CHECK(close(fd) == 0 && close(dev) == 0);
	CHECK(fd_count() == fds_before);
	return 0;
}
