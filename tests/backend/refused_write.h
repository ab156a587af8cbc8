/* SPDX-License-Identifier: MIT */
/* What the refused-write tests share. sendmmsg() is wrapped (-Wl,--wrap,
 * see tests.mk): the forwarding thread's next write fails once with the
 * errno stored in fail_next_write, which is 0 again once it has; every
 * write fails with the errno stored in fail_every_write while it is not
 * 0. Values 1..VALUES of SIGRTMIN are queued before a share fd takes
 * them, then read and checked in order. */
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

/* Reads want records into r, waiting up to 10 s for each batch. */
static inline void read_records(int fd, struct sigfd_siginfo *r, int want)
{
	for (int got = 0; got < want;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		CHECK(poll(&p, 1, 10000) == 1);
		n = read(fd, r + got, (size_t)(want - got) * sizeof r[0]);
		CHECK(n > 0 && n % (ssize_t)sizeof r[0] == 0);
		got += (int)(n / (ssize_t)sizeof r[0]);
	}
}

/* 0 if r holds values 1..VALUES of SIGRTMIN in order. */
static inline int values_in_order(const struct sigfd_siginfo *r)
{
	for (int i = 0; i < VALUES; i++)
		if (r[i].ssi_signo != (uint32_t)SIGRTMIN || r[i].ssi_int != i + 1) {
			fprintf(stderr, "record %d: signal %u, value %d; expected value %d\n", i,
				r[i].ssi_signo, r[i].ssi_int, i + 1);
			return 1;
		}
	return 0;
}

#endif
