/* SPDX-License-Identifier: MIT */
/* Local mode on Linux: the descriptor is a kernel signalfd, so it costs
 * nothing over the raw system call. */
#include <sys/signalfd.h>

#include "backend.h"
#include "sigfd.h"

int sigfd_local_open(const sigset_t *mask, unsigned long flags)
{
	int sfd_flags = 0;

	if (flags & SIGFD_NONBLOCK)
		sfd_flags |= SFD_NONBLOCK;
	if (flags & SIGFD_CLOEXEC)
		sfd_flags |= SFD_CLOEXEC;
	return signalfd(-1, mask, sfd_flags);
}

int sigfd_local_setmask(int fd, const sigset_t *mask)
{
	/* The kernel answers EINVAL for an open fd that is not a signalfd. */
	return signalfd(fd, mask, 0) < 0 ? -1 : 0;
}
