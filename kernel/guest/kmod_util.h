/* SPDX-License-Identifier: MIT */
/* kmod/tests' helper header, for running those tests against the kernel's
 * own creator-bound signalfd (SFD_CREATOR): the same helpers, except that
 * the descriptor must be a signalfd bound to its creator, and there is no
 * raw /dev/sigfd interface. */
#ifndef SIGFD_KPATCH_KMOD_UTIL_H
#define SIGFD_KPATCH_KMOD_UTIL_H

#include <fcntl.h>
#include <sched.h>
#include <stdint.h>

#include <sys/signalfd.h>

#include "proc_util.h"
#include "share_util.h"

#define SFD_CREATOR 0x00000001 /* the series' flag, include/uapi/linux/signalfd.h */
/* The module's creation flags, spelt as signalfd's. */
#define SIGFD_KF_NONBLOCK SFD_NONBLOCK
#define SIGFD_KF_CLOEXEC SFD_CLOEXEC

/* What the module's raw_create() makes: a descriptor of mask (bit(sig)
 * bits) bound to the caller, here a creator-bound signalfd. */
static inline int raw_create(uint64_t mask, uint32_t flags)
{
	sigset_t set;

	sigemptyset(&set);
	for (int sig = 1; sig <= 64; sig++)
		if (mask & bit(sig))
			sigaddset(&set, sig); /* libc refuses its own: left out */
	return signalfd(-1, &set, SFD_CREATOR | (int)flags);
}

/* The descriptor really comes from SFD_CREATOR, not a user-space fallback. */
static inline void assert_kernel_fd(int fd)
{
	char path[64], target[64];
	ssize_t n;

	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof target - 1);
	CHECK(n > 0);
	target[n] = 0;
	if (strcmp(target, "anon_inode:[signalfd-creator]") != 0 || !fdinfo_has(fd, "creator:")) {
		fprintf(stderr, "fd %d is %s, not a creator-bound signalfd\n", fd, target);
		exit(1);
	}
}

#endif
