/* SPDX-License-Identifier: MIT */
/* Share mode through the kernel module's /dev/sigfd (kmod/): the kernel binds
 * the descriptor to the creating thread and reads the creator's signals for
 * whoever holds it, so the library only translates arguments. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "../kmod/sigfd_uapi.h"
#include "backend.h"
#include "sigfd.h"

#define SIGFD_DEVICE "/dev/sigfd"

static uint64_t mask_bits(const sigset_t *mask)
{
	uint64_t bits = 0;

	for (int sig = 1; sig <= 64; sig++)
		if (sigismember(mask, sig) == 1)
			bits |= (uint64_t)1 << (sig - 1);
	return bits;
}

int sigfd_share_kernel_available(void)
{
	int saved = errno;
	int dev = open(SIGFD_DEVICE, O_RDONLY | O_CLOEXEC);

	if (dev >= 0)
		close(dev);
	errno = saved;
	return dev >= 0;
}

int sigfd_share_kernel_open(const sigset_t *mask, unsigned long flags)
{
	struct sigfd_params p = { .size = sizeof p, .mask = mask_bits(mask) };
	int dev, fd, err;

	if (flags & SIGFD_NONBLOCK)
		p.flags |= SIGFD_KF_NONBLOCK;
	if (flags & SIGFD_CLOEXEC)
		p.flags |= SIGFD_KF_CLOEXEC;
	dev = open(SIGFD_DEVICE, O_RDONLY | O_CLOEXEC);
	if (dev < 0) {
		/* No module loaded: this backend does not exist here. */
		if (errno == ENOENT || errno == ENXIO || errno == ENODEV)
			errno = ENOSYS;
		return -1;
	}
	fd = ioctl(dev, SIGFD_IOC_CREATE, &p);
	err = errno;
	close(dev);
	errno = err;
	return fd;
}

/* Only a descriptor the module made answers to SIGFD_IOC_SETMASK; another
 * driver's ioctl with the same number must never be reached, so ask the
 * kernel what the descriptor is first: in the calling thread's table, as
 * /proc/self is the main thread's, whose fd/ is gone once it has called
 * pthread_exit(). Without /proc we cannot tell, and leave the descriptor
 * to the other backends. */
static int is_kernel_sigfd(int fd)
{
	char path[64], target[sizeof SIGFD_ANON_NAME];
	ssize_t n;

	snprintf(path, sizeof path, "/proc/thread-self/fd/%d", fd);
	n = readlink(path, target, sizeof target);
	return n == (ssize_t)strlen(SIGFD_ANON_NAME) && memcmp(target, SIGFD_ANON_NAME, (size_t)n) == 0;
}

int sigfd_share_kernel_setmask(int fd, const sigset_t *mask)
{
	struct sigfd_params p = { .size = sizeof p, .mask = mask_bits(mask) };
	int saved = errno;

	if (!is_kernel_sigfd(fd)) {
		errno = saved;
		return SIGFD_NOT_MINE;
	}
	/* EPERM from anyone but the creator's process, as in user-space mode. */
	return ioctl(fd, SIGFD_IOC_SETMASK, &p) < 0 ? -1 : 0;
}
