/* SPDX-License-Identifier: MIT */
/* The interface every sigfd backend implements. The public entry points in
 * sigfd.c validate arguments (flags known, mask not NULL, SIGKILL and
 * SIGSTOP removed) and then call exactly one backend's open, or ask each
 * backend in turn whether a descriptor is one of its own for setmask. */
#ifndef SIGFD_BACKEND_H
#define SIGFD_BACKEND_H

#include <signal.h>

/* What a backend's setmask returns for a descriptor it does not own. */
#define SIGFD_NOT_MINE 1

/* Local mode (local_signalfd.c): the fd reports the reader's own signals. */
int sigfd_local_open(const sigset_t *mask, unsigned long flags);
int sigfd_local_setmask(int fd, const sigset_t *mask); /* EINVAL: not a sigfd */

/* Share mode in user space (share_user.c): creator-bound, forwarded. */
int sigfd_share_user_open(const sigset_t *mask, unsigned long flags);
int sigfd_share_user_setmask(int fd, const sigset_t *mask);

/* Share mode in the kernel's own signalfd (share_native.c): the SFD_CREATOR
 * flag of kernels built with kernel/'s patch series. Available is 1 when the
 * running kernel accepts the flag (probed once); open fails with ENOSYS when
 * it does not; setmask answers SIGFD_NOT_MINE for other descriptors. */
int sigfd_share_native_available(void);
int sigfd_share_native_open(const sigset_t *mask, unsigned long flags);
int sigfd_share_native_setmask(int fd, const sigset_t *mask);

/* Share mode in the kernel (share_kernel.c), through /dev/sigfd.
 * sigfd_share_kernel_available() is 1 when the device can be opened. */
int sigfd_share_kernel_available(void);
int sigfd_share_kernel_open(const sigset_t *mask, unsigned long flags);
int sigfd_share_kernel_setmask(int fd, const sigset_t *mask);

#endif
