/* SPDX-License-Identifier: MIT */
/* Helpers for the module's own tests (run in the guest only): the raw
 * interface and the check that a descriptor is the module's; what they
 * read from /proc is in proc_util.h. */
#ifndef SIGFD_KMOD_UTIL_H
#define SIGFD_KMOD_UTIL_H

#include <fcntl.h>
#include <sched.h>
#include <stdint.h>

#include "../sigfd_uapi.h"
#include "proc_util.h"
#include "share_util.h"

static inline int raw_create(uint64_t mask, uint32_t flags)
{
	struct sigfd_params p = { .size = sizeof p, .flags = flags, .mask = mask };
	int dev = open("/dev/sigfd", O_RDONLY | O_CLOEXEC);
	CHECK(dev >= 0);
	int fd = ioctl(dev, SIGFD_IOC_CREATE, &p);
	int err = errno;
	close(dev);
	errno = err;
	return fd;
}

/* The descriptor really comes from the module, not a user-space fallback. */
static inline void assert_kernel_fd(int fd)
{
	char path[64], target[64];
	ssize_t n;

	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof target - 1);
	CHECK(n > 0);
	target[n] = 0;
	if (strcmp(target, SIGFD_ANON_NAME) != 0) {
		fprintf(stderr, "fd %d is %s, not a kernel sigfd\n", fd, target);
		exit(1);
	}
}

#endif
