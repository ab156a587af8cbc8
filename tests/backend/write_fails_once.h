/* SPDX-License-Identifier: MIT */
/* sendmmsg() wrapped (-Wl,--wrap, see tests.mk): the forwarding thread's
 * next write fails once with the errno stored in fail_next_write, which
 * is 0 again once it has; every write fails with the errno stored in
 * fail_every_write while it is not 0. */
#ifndef SIGFD_TEST_WRITE_FAILS_ONCE_H
#define SIGFD_TEST_WRITE_FAILS_ONCE_H

#include <errno.h>
#include <stdatomic.h>
#include <sys/socket.h>

int __real_sendmmsg(int fd, struct mmsghdr *msgs, unsigned count, int flags);
int __wrap_sendmmsg(int fd, struct mmsghdr *msgs, unsigned count, int flags);

static atomic_int fail_next_write, fail_every_write;

int __wrap_sendmmsg(int fd, struct mmsghdr *msgs, unsigned count, int flags)
{
	int err = atomic_exchange(&fail_next_write, 0);

	if (!err)
		err = atomic_load(&fail_every_write);
	if (err) {
		errno = err;
		return -1;
	}
	return __real_sendmmsg(fd, msgs, count, flags);
}

#endif
