/* SPDX-License-Identifier: MIT */
/* Helpers for the module's own tests (run in the guest only): the raw
 * interface and the check that a descriptor is the module's; what they
 * read from /proc is in proc_util.h. Built with SIGFD_KMOD_AS_SFD_CREATOR
 * (kernel/run.sh), the same tests run against the kernel's own
 * creator-bound signalfd instead: raw_create() makes one with
 * SFD_CREATOR, and the descriptor must be one. */
#ifndef SIGFD_KMOD_UTIL_H
#define SIGFD_KMOD_UTIL_H

#include <fcntl.h>
#include <sched.h>
#include <stdint.h>

#ifdef SIGFD_KMOD_AS_SFD_CREATOR
#include <sys/signalfd.h>
#else
#include "../sigfd_uapi.h"
#endif
#include "proc_util.h"
#include "share_util.h"

#ifdef SIGFD_KMOD_AS_SFD_CREATOR
#ifndef SFD_CREATOR
#define SFD_CREATOR 0x00000001 /* the series' flag, include/uapi/linux/signalfd.h */
#endif
/* The module's creation flags, spelt as signalfd's. */
#define SIGFD_KF_NONBLOCK SFD_NONBLOCK
#define SIGFD_KF_CLOEXEC SFD_CLOEXEC
#define KERNEL_FD_NAME "anon_inode:[signalfd-creator]"

/* A descriptor of mask (bit(sig) bits) bound to the caller. */
static inline int raw_create(uint64_t mask, uint32_t flags)
{
	sigset_t set;

	sigemptyset(&set);
	for (int sig = 1; sig <= 64; sig++)
		if (mask & bit(sig))
			sigaddset(&set, sig); /* libc refuses its own: left out */
	return signalfd(-1, &set, SFD_CREATOR | (int)flags);
}
#else
#include <sys/syscall.h>

#define KERNEL_FD_NAME SIGFD_ANON_NAME

/* Unloads the module if nothing holds it: 0, else -1 (EAGAIN, EBUSY). */
static inline int unload_module(void)
{
	return (int)syscall(SYS_delete_module, "sigfd", O_NONBLOCK);
}

/* Loads the module from path, and waits for its device. */
static inline void load_module(const char *path)
{
	int ko = open(path, O_RDONLY | O_CLOEXEC);

	CHECK(ko >= 0);
	CHECK(syscall(SYS_finit_module, ko, "", 0) == 0);
	CHECK(close(ko) == 0);
	WAIT_UNTIL(access("/dev/sigfd", R_OK) == 0);
}

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
#endif

/* The descriptor really comes from the kernel, not a user-space fallback. */
static inline void assert_kernel_fd(int fd)
{
	char path[64], target[64];
	ssize_t n;

	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof target - 1);
	CHECK(n > 0);
	target[n] = 0;
#ifdef SIGFD_KMOD_AS_SFD_CREATOR
	CHECK(fdinfo_has(fd, "creator:"));
#endif
	if (strcmp(target, KERNEL_FD_NAME) != 0) {
		fprintf(stderr, "fd %d is %s, not %s\n", fd, target, KERNEL_FD_NAME);
		exit(1);
	}
}

#endif
