/* SPDX-License-Identifier: MIT */
/* The forwarding thread serves the whole process, so it takes nothing of
 * the thread that happened to start it: that thread's file-system uid (a
 * file server impersonating a user with setfsuid()), CPU affinity and
 * scheduling policy. A first sigfd() from such a thread made every later
 * one from a root thread fail with EACCES (issue 25). What is the
 * process's is kept: the main thread's CPUs (taskset, or a program that
 * pins itself), which the thread once widened to every CPU. Here the main
 * thread keeps off CPU 0 (where there are two), and a thread with fsuid
 * 65534, pinned to CPU 0 under SCHED_BATCH, makes the first share fd; then
 * the main thread (fsuid 0) makes a second, which must work; the
 * forwarding thread must have fsuid 0, the main thread's CPUs and
 * SCHED_OTHER. Needs root (setfsuid to another user). */
#include <pthread.h>
#include <sched.h>
#include <sys/fsuid.h>
#include <sys/syscall.h>

#include "share_util.h"

static int first_fd = -1;

static void *impersonate_and_open(void *unused)
{
	sigset_t mask = set_of(SIGUSR1);
	struct sched_param none = { 0 };
	cpu_set_t one;

	(void)unused;
	setfsuid(65534);
	CHECK((int)setfsuid((uid_t)-1) == 65534);
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	CHECK(sched_setaffinity(0, sizeof one, &one) == 0);
	CHECK(pthread_setschedparam(pthread_self(), SCHED_BATCH, &none) == 0);
	first_fd = sigfd(&mask, SIGFD_SHARE);
	CHECK(first_fd >= 0);
	return NULL;
}

int main(void)
{
	sigset_t mask = set_of(SIGUSR1);
	cpu_set_t mine, its;
	pthread_t t;
	pid_t tid;
	int fd;

	if (geteuid() != 0) {
		puts("SKIPPED: needs root, to take another file-system uid");
		return 77;
	}
	block_only(&mask);
	CHECK(sched_getaffinity(0, sizeof mine, &mine) == 0);
	CPU_CLR(0, &mine);
	if (CPU_COUNT(&mine) > 0)
		CHECK(sched_setaffinity(0, sizeof mine, &mine) == 0);
	else
		puts("one CPU: the main thread's CPUs are those of the thread on CPU 0");
	CHECK(pthread_create(&t, NULL, impersonate_and_open, NULL) == 0);
	CHECK(pthread_join(t, NULL) == 0);
	fd = sigfd(&mask, SIGFD_SHARE);
	if (fd < 0)
		fprintf(stderr, "sigfd from the root thread: %s\n", strerror(errno));
	CHECK(fd >= 0);
	CHECK((tid = forwarder_tid()) > 0);
	printf("forwarding thread: fsuid %ld, fsgid %ld\n", thread_status_field(tid, "Uid:", 3),
	       thread_status_field(tid, "Gid:", 3));
	CHECK(thread_status_field(tid, "Uid:", 3) == (long)geteuid());
	CHECK(thread_status_field(tid, "Gid:", 3) == (long)getegid());
	CHECK(sched_getaffinity(0, sizeof mine, &mine) == 0);
	CHECK(sched_getaffinity(tid, sizeof its, &its) == 0);
	printf("forwarding thread: %d CPUs, the main thread %d\n", CPU_COUNT(&its), CPU_COUNT(&mine));
	CHECK(CPU_EQUAL(&mine, &its));
	CHECK(syscall(SYS_sched_getscheduler, (long)tid) == SCHED_OTHER); /* musl has no wrapper */
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(read_one(first_fd).ssi_signo == SIGUSR1);
	CHECK(close(fd) == 0 && close(first_fd) == 0);
	return 0;
}
