/* SPDX-License-Identifier: MIT */
/* A gate in the forwarding thread's read of its signalfd, for the tests
 * that need a race to go one way every time. read() is wrapped (-Wl,--wrap,
 * see the Makefile): once armed, the thread's next read of its signalfd
 * stops at the gate (before the read, or after it returned) and the test
 * does what must happen in that window, then opens the gate. The thread
 * holds the share lock there: the test may close, kill and sigqueue, but
 * must not call sigfd() or sigfd_setmask() until the gate is open. */
#ifndef SIGFD_TEST_FORWARDER_GATE_H
#define SIGFD_TEST_FORWARDER_GATE_H

#include <semaphore.h>
#include <stdatomic.h>
#include <sys/prctl.h>

#include "share_util.h"

enum gate_at { GATE_OFF, GATE_BEFORE_READ, GATE_AFTER_READ };

static _Atomic int gate_armed = GATE_OFF;
/* Semaphores, not pipes: the thread's descriptor table is its own. */
static sem_t gate_reached, gate_go;
static int gate_made;

ssize_t __real_read(int fd, void *buf, size_t count);

static int gate_is_forwarder_signalfd(int fd)
{
	char name[17] = "", path[64], target[64];
	ssize_t n;

	if (prctl(PR_GET_NAME, name) != 0 || strcmp(name, "sigfd-forward") != 0)
		return 0;
	snprintf(path, sizeof path, "/proc/thread-self/fd/%d", fd);
	n = readlink(path, target, sizeof target - 1);
	if (n < 0)
		return 0;
	target[n] = 0;
	return strcmp(target, "anon_inode:[signalfd]") == 0;
}

static void gate_stop(void)
{
	CHECK(sem_post(&gate_reached) == 0);
	while (sem_wait(&gate_go) != 0)
		CHECK(errno == EINTR);
}

ssize_t __wrap_read(int fd, void *buf, size_t count)
{
	int at = atomic_load(&gate_armed);
	ssize_t n;

	if (at == GATE_OFF || !gate_is_forwarder_signalfd(fd) ||
	    !atomic_compare_exchange_strong(&gate_armed, &at, GATE_OFF))
		return __real_read(fd, buf, count);
	if (at == GATE_BEFORE_READ)
		gate_stop();
	n = __real_read(fd, buf, count);
	if (at == GATE_AFTER_READ) {
		int saved = errno;
		gate_stop();
		errno = saved;
	}
	return n;
}

static void gate_arm(enum gate_at at)
{
	if (!gate_made) {
		CHECK(sem_init(&gate_reached, 0, 0) == 0);
		CHECK(sem_init(&gate_go, 0, 0) == 0);
		gate_made = 1;
	}
	atomic_store(&gate_armed, at);
}

/* Wait until the thread stands at the gate. */
static void gate_wait(void)
{
	while (sem_wait(&gate_reached) != 0)
		CHECK(errno == EINTR);
}

static void gate_open(void)
{
	CHECK(sem_post(&gate_go) == 0);
}

/* The thread, woken by wake_sig, stops before its read; fd's last copy is
 * closed and sig sent while it stands there; then it goes on. */
static inline void gate_close_then_send(int fd, int wake_sig, int sig)
{
	gate_arm(GATE_BEFORE_READ);
	CHECK(kill(getpid(), wake_sig) == 0);
	gate_wait();
	CHECK(close(fd) == 0);
	CHECK(kill(getpid(), sig) == 0);
	gate_open();
}

static void gate_close_fds(void)
{
	if (gate_made) {
		sem_destroy(&gate_reached);
		sem_destroy(&gate_go);
		gate_made = 0;
	}
}

#endif
