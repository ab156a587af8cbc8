/* SPDX-License-Identifier: MIT */
/* Listen-in after fork: a child reads its parent's signals, with their
 * sender, through plain read and through an epoll set of its own, and never
 * its own signals, which stay pending in the child. */
#include <sys/epoll.h>

#include "kmod_util.h"

int main(void)
{
	sigset_t mask;
	int fd, ready[2], go[2];
	pid_t parent = getpid(), child;

	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGUSR2);
	block_only(&mask);
	fd = sigfd(&mask, SIGFD_SHARE);
	CHECK(fd >= 0);
	assert_kernel_fd(fd);
	CHECK(pipe(ready) == 0 && pipe(go) == 0);
	child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		struct sigfd_siginfo r;
		struct epoll_event ev = { .events = EPOLLIN };
		int ep = epoll_create1(0);
		char c;

		CHECK(ep >= 0 && epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) == 0);
		CHECK(kill(getpid(), SIGUSR2) == 0); /* our own: not on the fd */
		struct pollfd p = { .fd = fd, .events = POLLIN };
		CHECK(poll(&p, 1, 0) == 0);
		CHECK(epoll_wait(ep, &ev, 1, 0) == 0);
		CHECK(queued_bytes(fd) == 0);
		CHECK(write(ready[1], "r", 1) == 1);
		/* The parent's signal wakes our epoll, then our read. */
		CHECK(epoll_wait(ep, &ev, 1, 10000) == 1);
		r = read_one(fd);
		CHECK(r.ssi_signo == SIGUSR1 && r.ssi_pid == (uint32_t)parent);
		CHECK(write(ready[1], "r", 1) == 1);
		/* Blocking read, woken by the parent's second signal. */
		CHECK(read(go[0], &c, 1) == 1);
		r = read_one(fd);
		CHECK(r.ssi_signo == SIGUSR2 && r.ssi_pid == (uint32_t)parent);
		CHECK(pending_has(SIGUSR2)); /* still our own, untouched */
		CHECK(poll(&p, 1, 0) == 0);
		_exit(0);
	}
	char c;
	CHECK(read(ready[0], &c, 1) == 1);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(read(ready[0], &c, 1) == 1);
	CHECK(!pending_has(SIGUSR1)); /* the child took it from us */
	CHECK(write(go[1], "g", 1) == 1);
	WAIT_ASLEEP(child);
	CHECK(kill(getpid(), SIGUSR2) == 0);
	reap_ok(child);
	CHECK(!pending_has(SIGUSR2));
	CHECK(close(fd) == 0);
	close_pair(ready);
	close_pair(go);
	return 0;
}
