/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * The interface of the sigfd kernel module, shared by the module and by
 * libsigfd (src/share_kernel.c). Plain fixed-size types only, so that the
 * same header builds in the kernel, under glibc and under musl.
 *
 *   dev = open("/dev/sigfd", O_RDONLY | O_CLOEXEC);
 *   fd  = ioctl(dev, SIGFD_IOC_CREATE, &(struct sigfd_params){
 *                    .size = sizeof(struct sigfd_params), .flags = ..., .mask = ... });
 *   ioctl(fd, SIGFD_IOC_SETMASK, &params);   (flags must be 0)
 *   read(fd, records, n * 128);              (struct signalfd_siginfo records)
 *
 * Versioning: the caller puts the size of the struct it knows in .size. The
 * module accepts any size from SIGFD_PARAMS_SIZE_V1 up to a page (E2BIG
 * above, as openat2() and clone3()); bytes it does not know must be zero
 * (E2BIG otherwise), so fields can be added at the end.
 * The module matches commands on type and number only, not on the size
 * _IOW() encodes, for the same reason.
 */
#ifndef SIGFD_UAPI_H
#define SIGFD_UAPI_H

#ifdef __KERNEL__
#include <linux/ioctl.h>
#include <linux/types.h>
#else
#include <stdint.h>
#include <sys/ioctl.h>
#endif

struct sigfd_params {
	uint32_t size;  /* sizeof(struct sigfd_params) as the caller knows it */
	uint32_t flags; /* SIGFD_KF_* for CREATE, 0 for SETMASK */
	uint64_t mask;  /* bit (n - 1) set: signal n is wanted; SIGKILL, SIGSTOP ignored */
};

#define SIGFD_PARAMS_SIZE_V1 16

#define SIGFD_KF_NONBLOCK 0x1u /* the new descriptor is O_NONBLOCK */
#define SIGFD_KF_CLOEXEC  0x2u /* the new descriptor is close-on-exec */

#define SIGFD_IOC_MAGIC   0xF5
#define SIGFD_IOC_CREATE  _IOW(SIGFD_IOC_MAGIC, 1, struct sigfd_params) /* on /dev/sigfd: new fd */
#define SIGFD_IOC_SETMASK _IOW(SIGFD_IOC_MAGIC, 2, struct sigfd_params) /* on a sigfd: 0 */

/* What readlink("/proc/self/fd/N") says for a descriptor of the module. */
#define SIGFD_ANON_NAME "anon_inode:[sigfd]"

#endif
