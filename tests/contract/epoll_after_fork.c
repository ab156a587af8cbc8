/* SPDX-License-Identifier: MIT */
/* epoll after fork(): an epoll set inherited across fork() is one instance
 * shared by parent and child, and it asks a registered descriptor for its
 * readiness in the context of whoever calls epoll_wait(). For a Linux
 * signalfd (local mode) that is the caller's own pending signals, so
 *  - the child's own signal is never reported by the inherited set, and
 *  - a child's epoll_wait() drops the parent's readiness from the shared
 *    set: the parent's pending signal is then reported by poll() but no
 *    longer by epoll_wait();
 * while a set the child creates itself works. Share mode descriptors carry
 * the creator's signals as data, so epoll agrees with poll() everywhere.
 * The test asks for epoll to agree with poll(); local mode's behaviour is
 * the kernel's, documented in sigfd(3) CAVEATS and listed in
 * tests/known-differences (XFAIL; XPASS would mean the page needs fixing). */
#include <sys/epoll.h>

#include "share_util.h"

static int epoll_now(int ep)
{
	struct epoll_event ev;
	int n;
	while ((n = epoll_wait(ep, &ev, 1, 0)) < 0 && errno == EINTR)
		;
	CHECK(n >= 0);
	return n;
}

static int poll_now(int fd)
{
	return poll_events(fd, POLLIN, 0) == POLLIN;
}

/* Result bits of one backend's run. */
enum {
	CHILD_OWN_POLL = 1,     /* child's own signal: poll() sees it */
	CHILD_OWN_EPOLL = 2,    /* ... the inherited epoll set does */
	CHILD_OWN_NEWSET = 4,   /* ... a set the child makes does */
	PARENT_AFTER_POLL = 8,  /* parent's signal after the child's epoll_wait: poll() */
	PARENT_AFTER_EPOLL = 16 /* ... epoll_wait() in the parent */
};

static int run(unsigned long flags)
{
	sigset_t set = set_of(SIGUSR1);
	int result = 0;

	block_only(&set);
	int fd = sigfd(&set, flags | SIGFD_CLOEXEC | SIGFD_NONBLOCK);
	CHECK(fd >= 0);
	int ep = epoll_create1(EPOLL_CLOEXEC);
	CHECK(ep >= 0);
	struct epoll_event ev = {.events = EPOLLIN};
	CHECK(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) == 0);

	/* Part 1: the child's own signal. */
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		int r = 0;
		CHECK(kill(getpid(), SIGUSR1) == 0); /* pending when kill returns */
		r |= poll_now(fd) ? CHILD_OWN_POLL : 0;
		r |= epoll_now(ep) ? CHILD_OWN_EPOLL : 0;
		int mine = epoll_create1(EPOLL_CLOEXEC);
		CHECK(mine >= 0 && epoll_ctl(mine, EPOLL_CTL_ADD, fd, &ev) == 0);
		r |= epoll_now(mine) ? CHILD_OWN_NEWSET : 0;
		_exit(r);
	}
	int status;
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status));
	result |= WEXITSTATUS(status);

	/* Part 2: the parent's signal, then a child's epoll_wait on the set. */
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(poll_events(fd, POLLIN, 30000) == POLLIN); /* share mode forwards it */
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		epoll_now(ep);
		_exit(0);
	}
	reap_ok(pid);
	result |= poll_now(fd) ? PARENT_AFTER_POLL : 0;
	result |= epoll_now(ep) ? PARENT_AFTER_EPOLL : 0;
	CHECK(read_one(fd).ssi_signo == SIGUSR1);

	CHECK(close(ep) == 0 && close(fd) == 0);
	return result;
}

/* Each backend in a process of its own, so none sees another's state; it
 * sends back whether it is the kernel module, then run()'s result. */
static int in_child(unsigned long flags, int *kernel)
{
	unsigned char answer[2];
	int p[2];
	CHECK(pipe(p) == 0);
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		sigset_t set = set_of(SIGUSR1);
		block_only(&set);
		int probe = sigfd(&set, flags | SIGFD_CLOEXEC);
		CHECK(probe >= 0);
		answer[0] = (flags & SIGFD_SHARE) && kernel_backend(probe);
		CHECK(close(probe) == 0);
		answer[1] = (unsigned char)run(flags);
		CHECK(write(p[1], answer, 2) == 2);
		exit(0); /* not _exit: the library ends its forwarding thread at exit */
	}
	CHECK(close(p[1]) == 0);
	CHECK(read(p[0], answer, 2) == 2 && close(p[0]) == 0);
	reap_ok(pid);
	*kernel = answer[0];
	return answer[1];
}

int main(void)
{
	int kernel;
	int got = in_child(test_mode(), &kernel);

	/* The parent's signal is there for poll() after the child's epoll_wait(). */
	CHECK(got & PARENT_AFTER_POLL);
	/* Share mode: the child's own signal is not the creator's. */
	CHECK(!test_mode() || !(got & (CHILD_OWN_POLL | CHILD_OWN_NEWSET)));
	CHECK(!test_mode() == !!(got & CHILD_OWN_POLL));
	CHECK(!!(got & CHILD_OWN_NEWSET) == !!(got & CHILD_OWN_POLL));
	/* epoll agrees with poll(), in the child and then in the parent. */
	CHECK(!!(got & CHILD_OWN_EPOLL) == !!(got & CHILD_OWN_POLL));
	CHECK(got & PARENT_AFTER_EPOLL);
	return 0;
}
