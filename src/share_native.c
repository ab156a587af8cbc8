/* SPDX-License-Identifier: MIT */
/* Share mode through the kernel's own creator-bound signalfd: the SFD_CREATOR
 * flag of signalfd4() added by the patch series in kernel/. The kernel binds
 * the descriptor to the creating thread and does everything; the library
 * only probes for the flag, once per process, and passes the call on. */
#include <errno.h>
#include <stdatomic.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "backend.h"
#include "sigfd.h"

#ifndef SFD_CREATOR
#define SFD_CREATOR 0x00000001
#endif

/* 0: not probed yet, 1: the kernel has SFD_CREATOR, -1: it has not. */
static atomic_int native_state;

int sigfd_share_native_available(void)
{
	int state = atomic_load_explicit(&native_state, memory_order_relaxed);

	if (state == 0) {
		int saved = errno;
		sigset_t none;

		sigemptyset(&none);
		int fd = signalfd(-1, &none, SFD_CREATOR | SFD_CLOEXEC | SFD_NONBLOCK);
		if (fd >= 0) {
			close(fd);
			state = 1;
		} else if (errno == EINVAL) {
			state = -1; /* an unknown flag: the kernel predates it */
		}
		/* Out of descriptors or memory, the probe cannot tell: try
		 * again next time, and let this call fail as the kernel says. */
		if (state != 0)
			atomic_store_explicit(&native_state, state, memory_order_relaxed);
		errno = saved;
	}
	return state >= 0;
}

int sigfd_share_native_open(const sigset_t *mask, unsigned long flags)
{
	int sfd_flags = SFD_CREATOR;

	if (!sigfd_share_native_available()) {
		errno = ENOSYS;
		return -1;
	}
	if (flags & SIGFD_NONBLOCK)
		sfd_flags |= SFD_NONBLOCK;
	if (flags & SIGFD_CLOEXEC)
		sfd_flags |= SFD_CLOEXEC;
	return signalfd(-1, mask, sfd_flags);
}

int sigfd_share_native_setmask(int fd, const sigset_t *mask)
{
	int saved = errno;

	if (!sigfd_share_native_available())
		return SIGFD_NOT_MINE;
	/* With SFD_CREATOR the kernel updates only a creator-bound signalfd
	 * and answers EINVAL for anything else: a plain signalfd, a socket of
	 * the user-space backend, a file. EPERM: not the creator's process. */
	if (signalfd(fd, mask, SFD_CREATOR) >= 0)
		return 0;
	if (errno == EINVAL) {
		errno = saved;
		return SIGFD_NOT_MINE;
	}
	return -1;
}
