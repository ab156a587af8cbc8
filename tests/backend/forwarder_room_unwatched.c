/* SPDX-License-Identifier: MIT */
/* A share fd that has filled up is watched for room only then (its
 * writer's EPOLLOUT, asked for with EPOLL_CTL_MOD). Should the kernel
 * refuse that, the thread asks for the room itself every 10 ms instead of
 * waiting for an event that cannot come. Here every such request fails
 * (-Wl,--wrap=epoll_ctl). RT signals are queued 2,000 at a time until the
 * share fd has filled (the thread asked to watch it), then read one record
 * per call: each arrives, once and in order, each within a poll() of
 * 10 s. */
#include <stdatomic.h>
#include <sys/epoll.h>
#include <sys/resource.h>

#include "share_util.h"

#define CHUNK 2000
#define MOST 60000 /* a share fd holds 19,000 records here (wmem_max 4 MiB) */

static atomic_int refused;

int __real_epoll_ctl(int ep, int op, int fd, struct epoll_event *ev);
int __wrap_epoll_ctl(int ep, int op, int fd, struct epoll_event *ev)
{
	if (op == EPOLL_CTL_MOD && ev && (ev->events & EPOLLOUT)) {
		atomic_fetch_add(&refused, 1);
		errno = ENOMEM;
		return -1;
	}
	return __real_epoll_ctl(ep, op, fd, ev);
}

int main(void)
{
	sigset_t mask = set_of(SIGRTMIN);
	struct rlimit lim;
	struct pollfd p;
	int fd, sent = 0;

	CHECK(getrlimit(RLIMIT_SIGPENDING, &lim) == 0);
	if (lim.rlim_cur != RLIM_INFINITY && lim.rlim_cur < MOST) {
		lim.rlim_cur = lim.rlim_max == RLIM_INFINITY || lim.rlim_max >= MOST ? MOST : lim.rlim_max;
		CHECK(setrlimit(RLIMIT_SIGPENDING, &lim) == 0);
	}
	block_only(&mask);
	fd = sigfd(&mask, SIGFD_SHARE);
	CHECK(fd >= 0);
	while (atomic_load(&refused) == 0) {
		CHECK(sent < MOST);
		for (int i = 0; i < CHUNK; i++, sent++)
			CHECK(sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = sent }) == 0);
		WAIT_UNTIL(!pending_has(SIGRTMIN) || atomic_load(&refused) > 0);
	}
	p = (struct pollfd){ .fd = fd, .events = POLLIN };
	for (int i = 0; i < sent; i++) {
		struct sigfd_siginfo r;

		CHECK(poll(&p, 1, 10000) == 1 && p.revents == POLLIN);
		r = read_one(fd);
		CHECK(r.ssi_signo == (uint32_t)SIGRTMIN && r.ssi_int == i);
	}
	printf("%d records; watching for room refused %d times\n", sent, atomic_load(&refused));
	CHECK(poll(&p, 1, 0) == 0);
	CHECK(!pending_has(SIGRTMIN));
	CHECK(close(fd) == 0);
	return 0;
}
