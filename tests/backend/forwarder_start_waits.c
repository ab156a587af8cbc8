/* SPDX-License-Identifier: MIT */
/* The first sigfd(SIGFD_SHARE) of a process returns only once the
 * forwarding thread runs the library's code. A sanitizer's runtime
 * allocates in a new thread first, under locks it does not take around
 * fork(), so a fork() right after sigfd() returned could copy them held and
 * hang the child. Here pthread_create() is wrapped (-Wl,--wrap, see the
 * Makefile) so that the new thread waits at a gate before it reaches the
 * library: sigfd() must still be waiting while the gate is shut, and return
 * with a working share fd once it opens. The user-space backend only: the
 * kernel backends start no thread, and tests/backend/ is the host's alone
 * (tests/folders). */
#include <poll.h>
#include <pthread.h>

#include "share_util.h"

int __real_pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

static int gate[2], done[2];
static void *(*gated_start)(void *);

static void *opener(void *arg);

static void *behind_gate(void *arg)
{
	char c;

	CHECK(read(gate[0], &c, 1) == 1);
	return gated_start(arg);
}

/* Every thread but the test's own starts behind the gate. */
int __wrap_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
			  void *(*start)(void *), void *arg)
{
	if (start == opener)
		return __real_pthread_create(thread, attr, start, arg);
	gated_start = start;
	return __real_pthread_create(thread, attr, behind_gate, arg);
}

/* A failed check exits with the thread still at the gate, and exit() waits
 * for the thread: open it first. */
static void open_gate(void)
{
	(void)!write(gate[1], "g", 1);
}

static void *opener(void *arg)
{
	int fd = sigfd(arg, SIGFD_SHARE);

	CHECK(write(done[1], &fd, sizeof fd) == (ssize_t)sizeof fd);
	return NULL;
}

int main(void)
{
	sigset_t usr1 = set_of(SIGUSR1);
	pthread_t thread;
	int fd;

	CHECK(setenv("SIGFD_BACKEND", "user", 1) == 0);
	block_only(&usr1);
	CHECK(pipe(gate) == 0 && pipe(done) == 0);
	CHECK(atexit(open_gate) == 0);
	CHECK(pthread_create(&thread, NULL, opener, &usr1) == 0);
	/* Shut gate: sigfd() has not returned. Were it not waiting, it would
	 * return at once and this poll would see it. */
	CHECK(poll_events(done[0], POLLIN, 300) == 0);
	open_gate();
	CHECK(poll_events(done[0], POLLIN, 10000) & POLLIN);
	CHECK(read(done[0], &fd, sizeof fd) == (ssize_t)sizeof fd);
	CHECK(fd >= 0);
	CHECK(pthread_join(thread, NULL) == 0);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(read_one(fd).ssi_signo == SIGUSR1);
	CHECK(close(fd) == 0);
	close_pair(done);
	close_pair(gate);
	gate[1] = -1; /* open_gate() at exit has nothing left to do */
	return 0;
}
