/* SPDX-License-Identifier: MIT */
/* A forwarding thread that fails to start (here its close_range() is
 * refused, as a seccomp filter may) leaves no descriptor behind, however
 * the callers interleave. The first caller, T1, made the door and waits for
 * the thread; the thread fails and ends; before T1 has the lock back,
 * another caller joins the ended thread and makes a door of its own for a
 * thread of its own. The thread's end of T1's door, kept in the program's
 * table until the thread has copied it, was then forgotten and never
 * closed: a descriptor leaked per such interleaving (issue 28's review).
 * pthread_cond_wait() is wrapped (tests.mk) so that T1, woken, lets the
 * main thread make its call before it takes the lock back; syscall() is
 * wrapped to refuse the thread's close_range(). Both calls must fail with
 * EPERM and leave the descriptors as they were; with close_range() allowed
 * again, a share fd must work. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/syscall.h>

#include "share_util.h"
#include "syscall_args.h"

#ifndef CLOSE_RANGE_UNSHARE
#define CLOSE_RANGE_UNSHARE (1U << 1)
#endif

int __real_pthread_cond_wait(pthread_cond_t *cond, pthread_mutex_t *mutex);
int __wrap_pthread_cond_wait(pthread_cond_t *cond, pthread_mutex_t *mutex);
long __wrap_syscall(long number, ...);

static atomic_bool refusing, refused, delaying;
static _Thread_local bool first_caller;
static int go[2], done[2];

long __wrap_syscall(long number, ...)
{
	long a[SYSCALL_NARGS];

	SYSCALL_ARGS(a, number);
	if (number == SYS_close_range && (a[2] & CLOSE_RANGE_UNSHARE) && atomic_load(&refusing)) {
		atomic_store(&refused, true);
		errno = EPERM;
		return -1;
	}
	return REAL_SYSCALL(number, a);
}

/* T1, woken once its thread has failed, gives the lock up until the other
 * call has returned: as if that caller had won the lock. */
int __wrap_pthread_cond_wait(pthread_cond_t *cond, pthread_mutex_t *mutex)
{
	int r = __real_pthread_cond_wait(cond, mutex);

	if (first_caller && atomic_load(&refused) && atomic_exchange(&delaying, false)) {
		CHECK(pthread_mutex_unlock(mutex) == 0);
		put_byte(go[1]);
		get_byte(done[0]);
		CHECK(pthread_mutex_lock(mutex) == 0);
	}
	return r;
}

static void *first_call(void *mask)
{
	int fd;

	first_caller = true;
	errno = 0;
	fd = sigfd(mask, SIGFD_SHARE);
	CHECK(fd == -1 && errno == EPERM);
	return NULL;
}

int main(void)
{
	sigset_t usr1 = set_of(SIGUSR1);
	pthread_t t1;
	int before, fd;

	CHECK(setenv("SIGFD_BACKEND", "user", 1) == 0);
	block_only(&usr1);
	CHECK(pipe(go) == 0 && pipe(done) == 0);
	before = fd_count();
	atomic_store(&refusing, true);
	atomic_store(&delaying, true);
	CHECK(pthread_create(&t1, NULL, first_call, &usr1) == 0);
	get_byte(go[0]);
	errno = 0;
	fd = sigfd(&usr1, SIGFD_SHARE);
	CHECK(fd == -1 && errno == EPERM);
	put_byte(done[1]);
	CHECK(pthread_join(t1, NULL) == 0);
	CHECK(fd_count() == before);

	atomic_store(&refusing, false);
	CHECK((fd = sigfd(&usr1, SIGFD_SHARE)) >= 0);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(read_one(fd).ssi_signo == SIGUSR1);
	CHECK(close(fd) == 0);
	close_pair(go);
	close_pair(done);
	return 0;
}
