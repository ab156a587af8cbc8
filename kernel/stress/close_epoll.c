/* SPDX-License-Identifier: MIT */
/* close and epoll against reads and the creator's exit: a flooded
 * creator's descriptor is read in another process by a thread in blocking
 * read(), one in poll(), one in epoll_wait() (removing and adding the
 * descriptor as it goes), while another thread dups the descriptor, adds
 * the dup to an epoll set and closes it, over and over; then the creator
 * ends (by _exit() or SIGKILL). Every reader must get end of file. Usage:
 * close_epoll [seconds] */
#include <sys/epoll.h>

#include "stress.h"

static sigset_t mask;
static int shared_fd, ended;
static long records;

static void got(ssize_t n, const struct sigfd_siginfo *r)
{
	if (n < 0) {
		CHECK(errno == EAGAIN || errno == EINTR);
		return;
	}
	stress_records_ok(r, n, &mask);
	__atomic_add_fetch(&records, n / (ssize_t)sizeof *r, __ATOMIC_RELAXED);
}

static void *blocking_reader(void *arg)
{
	struct sigfd_siginfo r[4];
	int fd = dup(shared_fd);
	ssize_t n;

	(void)arg;
	CHECK(fd >= 0);
	while ((n = read(fd, r, sizeof r)) != 0)
		got(n, r);
	CHECK(close(fd) == 0);
	return NULL;
}

static void *poll_reader(void *arg)
{
	struct sigfd_siginfo r[4];
	int fd = dup(shared_fd);
	ssize_t n = -1;

	(void)arg;
	CHECK(fd >= 0);
	while (n != 0) {
		if (!(poll_events(fd, POLLIN, 10) & (POLLIN | POLLHUP)))
			continue;
		/* Another reader may take the record first: then this one
		 * waits for the next, or for end of file. */
		n = read(fd, r, sizeof r);
		got(n, r);
	}
	CHECK(close(fd) == 0);
	return NULL;
}

static void *epoll_reader(void *arg)
{
	struct epoll_event ev = { .events = EPOLLIN }, out;
	struct sigfd_siginfo r[4];
	int ep = epoll_create1(EPOLL_CLOEXEC), fd = dup(shared_fd);
	ssize_t n = -1;

	(void)arg;
	CHECK(ep >= 0 && fd >= 0);
	for (int i = 0; n != 0; i++) {
		if (i % 8 == 0) {
			CHECK(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) == 0);
		}
		if (epoll_wait(ep, &out, 1, 10) == 1)
			got(n = read(fd, r, sizeof r), r);
		if (i % 8 == 7)
			CHECK(epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL) == 0);
	}
	CHECK(close(fd) == 0 && close(ep) == 0);
	return NULL;
}

/* Until the readers are done: a dup in a new epoll set, closed while
 * there, then the set. */
static void *closer(void *arg)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLET };

	(void)arg;
	while (!__atomic_load_n(&ended, __ATOMIC_SEQ_CST)) {
		int ep = epoll_create1(EPOLL_CLOEXEC), d = dup(shared_fd);

		CHECK(ep >= 0 && d >= 0);
		CHECK(epoll_ctl(ep, EPOLL_CTL_ADD, d, &ev) == 0);
		CHECK(close(d) == 0 && close(ep) == 0);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	void *(*readers[])(void *) = { blocking_reader, poll_reader, epoll_reader };
	long rounds = 0;
	int link[2];

	mask = stress_start(argc, argv, SIGRTMIN + 4, link);
	for (; stress_running(); rounds++) {
		struct stress_creator creator;
		pthread_t t[3], c;
		pid_t sender;

		shared_fd = stress_creator_start(&creator, link, &mask);
		sender = stress_flood(creator.pid, SIGRTMIN + 4);
		ended = 0;
		CHECK(pthread_create(&c, NULL, closer, NULL) == 0);
		for (int i = 0; i < 3; i++)
			CHECK(pthread_create(&t[i], NULL, readers[i], NULL) == 0);
		stress_burn(5 + rounds % 4 * 5);
		stress_creator_end(&creator, rounds % 2);
		for (int i = 0; i < 3; i++)
			stress_join(t[i], "a close_epoll reader");
		__atomic_store_n(&ended, 1, __ATOMIC_SEQ_CST);
		CHECK(pthread_join(c, NULL) == 0);
		stress_stop(sender);
		CHECK(close(shared_fd) == 0);
	}
	close_pair(link);
	stress_done("close_epoll", rounds, records);
	return 0;
}
