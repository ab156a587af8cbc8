/* SPDX-License-Identifier: MIT */
/* epoll reports EPOLLIN on a sigfd while a signal in its mask is pending,
 * level-triggered: again on the next epoll_wait() until the record is read,
 * and not after. */
#include <sys/epoll.h>

#include "check.h"

static int wait_events(int ep, int ms, struct epoll_event *ev)
{
	int n;
	while ((n = epoll_wait(ep, ev, 1, ms)) < 0 && errno == EINTR)
		;
	CHECK(n >= 0);
	return n;
}

int main(void)
{
	sigset_t set = set_of(SIGUSR1);
	block_only(&set);
	int fd = sigfd(&set, SIGFD_NONBLOCK | SIGFD_CLOEXEC | test_mode());
	CHECK(fd >= 0);
	int ep = epoll_create1(EPOLL_CLOEXEC);
	CHECK(ep >= 0);
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = 0xfeedULL };
	CHECK(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) == 0);

	CHECK(wait_events(ep, 0, &ev) == 0);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	settle(fd, &set);
	for (int i = 0; i < 2; i++) {
		memset(&ev, 0, sizeof ev);
		CHECK(wait_events(ep, 0, &ev) == 1);
		CHECK(ev.events == EPOLLIN);
		CHECK(ev.data.u64 == 0xfeedULL);
	}
	CHECK(read_one(fd).ssi_signo == SIGUSR1);
	CHECK(wait_events(ep, 0, &ev) == 0);

	/* Woken in epoll_wait by a signal another process sends. */
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		CHECK(kill(getppid(), SIGUSR1) == 0);
		_exit(0);
	}
	CHECK(wait_events(ep, 30000, &ev) == 1);
	CHECK(ev.events == EPOLLIN);
	struct sigfd_siginfo r = read_one(fd);
	CHECK(r.ssi_signo == SIGUSR1 && r.ssi_pid == (uint32_t)pid);
	CHECK(wait_events(ep, 0, &ev) == 0);
	reap_ok(pid);
	CHECK(close(ep) == 0);
	CHECK(close(fd) == 0);
	return 0;
}
