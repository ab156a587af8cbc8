/* SPDX-License-Identifier: MIT */
/* What the refused-write tests share. sendmmsg() is wrapped (-Wl,--wrap,
 * see tests.mk): the forwarding thread's next write fails once with the
 * errno stored in fail_next_write, which is 0 again once it has; every
 * write fails with the errno stored in fail_every_write while it is not
 * 0. Values 1..VALUES of SIGRTMIN are queued before a share fd takes
 * them, then read and checked in order (share_util.h). */
#ifndef SIGFD_TEST_REFUSED_WRITE_H
#define SIGFD_TEST_REFUSED_WRITE_H

#include <errno.h>
#include <poll.h>
#include <stdatomic.h>
#include <sys/socket.h>

#include "share_util.h"

#define VALUES 100

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

/* A non-blocking share fd of the user-space backend with an empty mask,
 * and SIGRTMIN blocked with values 1..VALUES queued. */
static inline int share_fd_with_values(void)
{
	sigset_t none, rt = set_of(SIGRTMIN);
	int fd;

	CHECK(setenv("SIGFD_BACKEND", "thread", 1) == 0);
	sigemptyset(&none);
	block_only(&rt);
	fd = sigfd(&none, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(fd >= 0);
	for (int i = 1; i <= VALUES; i++)
		CHECK(sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = i }) == 0);
	return fd;
}

#endif
