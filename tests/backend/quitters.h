/* SPDX-License-Identifier: MIT */
/* For the tests that make threads exit while /proc/self/task is listed
 * (syscall() wrapped, tests.mk): a thread that says it runs and waits to
 * be told to quit, whether one is gone from the kernel's list, and the
 * layout getdents64() writes. */
#ifndef SIGFD_TESTS_QUITTERS_H
#define SIGFD_TESTS_QUITTERS_H

#include <pthread.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>

#include "share_util.h"
#include "syscall_args.h"

struct linux_dirent64 {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

struct quitter {
	sem_t quit;
	pid_t tid;
	pthread_t thread;
};

/* Each quitter writes a byte here once it runs: its tid is known then. */
static int quitter_started[2];

/* Gone from the kernel's list of threads, not just returned. */
static inline bool gone(pid_t tid)
{
	return __real_syscall(SYS_tgkill, (long)getpid(), (long)tid, 0L) < 0 && errno == ESRCH;
}

static inline void *wait_to_quit(void *arg)
{
	struct quitter *q = arg;

	q->tid = (pid_t)__real_syscall(SYS_gettid);
	put_byte(quitter_started[1]);
	while (sem_wait(&q->quit) != 0)
		CHECK(errno == EINTR);
	return NULL;
}

#endif
