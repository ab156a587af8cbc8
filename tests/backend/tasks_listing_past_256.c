/* SPDX-License-Identifier: MIT */
/* The listing of /proc/self/task behind sigfd_unblocked_threads() and the
 * forwarding thread's look sees every live thread in a process of more
 * than 256 threads, even when threads exit while it is read. A
 * getdents64() resumes at the thread the last call had no room for; when
 * that thread has exited, it resumes by position, which exits before it
 * have moved on: a thread is skipped. A listing counts only when the
 * threads it saw that are still there are as many as the kernel counts;
 * that check covered the first 256 seen and took any after for live.
 * Here 300 threads block everything; then F (early), X (the 302nd), Y and
 * W, which leaves SIGUSR1 unblocked. The call of getdents64() that reaches
 * X is made to end on it (syscall() is wrapped: tests.mk), so Y has no
 * room; then F, X and Y exit and the next call starts past W. X, seen and
 * gone, was taken for live, and the count was 0. It must be 1. */
#include <stdatomic.h>

#include "quitters.h"

#define FILLERS 300

static struct quitter fillers[FILLERS], thread_f, thread_x, thread_y, thread_w;
static atomic_bool armed, cut_done;

/* The bytes that the next getdents64() of dir, of count bytes, would
 * return up to and including X's entry; 0 when X is not among them. Read
 * from a second descriptor at the same position. */
static long bytes_through_x(int dir, long count)
{
	char buf[65536];
	long n, off = 0, pos = lseek(dir, 0, SEEK_CUR);
	int peek = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	CHECK(peek >= 0 && pos >= 0 && count <= (long)sizeof buf);
	CHECK(lseek(peek, pos, SEEK_SET) == pos);
	n = __real_syscall(SYS_getdents64, (long)peek, (long)buf, count);
	CHECK(n >= 0 && close(peek) == 0);
	while (off < n) {
		struct linux_dirent64 *d = (void *)(buf + off);

		off += d->reclen;
		if ((pid_t)atoi(d->name) == thread_x.tid)
			return off < n ? off : 0; /* Y must be in the same call */
	}
	return 0;
}

long __wrap_syscall(long number, ...);
long __wrap_syscall(long number, ...)
{
	long a[SYSCALL_NARGS], cut, r;

	SYSCALL_ARGS(a, number);
	if (number != SYS_getdents64 || !atomic_load(&armed) ||
	    (cut = bytes_through_x((int)a[0], a[2])) == 0)
		return REAL_SYSCALL(number, a);
	atomic_store(&armed, false);
	r = __real_syscall(number, a[0], a[1], cut);
	CHECK(r == cut);
	CHECK(sem_post(&thread_f.quit) == 0 && sem_post(&thread_x.quit) == 0 &&
	      sem_post(&thread_y.quit) == 0);
	/* Gone from the kernel's list of threads, not just returned. */
	while (!gone(thread_f.tid) || !gone(thread_x.tid) || !gone(thread_y.tid))
		sched_yield();
	atomic_store(&cut_done, true);
	return r;
}

static void start(struct quitter *w)
{
	CHECK(sem_init(&w->quit, 0, 0) == 0);
	CHECK(pthread_create(&w->thread, NULL, wait_to_quit, w) == 0);
	get_byte(quitter_started[0]);
}

static void end(struct quitter *w, bool told)
{
	if (!told)
		CHECK(sem_post(&w->quit) == 0);
	CHECK(pthread_join(w->thread, NULL) == 0);
	CHECK(sem_destroy(&w->quit) == 0);
}

int main(void)
{
	sigset_t all, usr1 = set_of(SIGUSR1);
	pid_t tids[4];
	int n;

	CHECK(sigfillset(&all) == 0);
	block_only(&all);
	CHECK(pipe2(quitter_started, O_CLOEXEC) == 0);
	start(&thread_f); /* listed early, among the first 256 */
	for (int i = 0; i < FILLERS; i++)
		start(&fillers[i]);
	start(&thread_x); /* past the first 256 */
	start(&thread_y);
	CHECK(pthread_sigmask(SIG_UNBLOCK, &usr1, NULL) == 0);
	start(&thread_w); /* inherits SIGUSR1 unblocked */
	CHECK(pthread_sigmask(SIG_BLOCK, &usr1, NULL) == 0);

	atomic_store(&armed, true);
	n = sigfd_unblocked_threads(&usr1, tids, 4);
	CHECK(atomic_load(&cut_done));
	printf("threads leaving SIGUSR1 unblocked: %d (W is %d)\n", n, (int)thread_w.tid);
	CHECK(n == 1 && tids[0] == thread_w.tid);

	end(&thread_f, true);
	end(&thread_x, true);
	end(&thread_y, true);
	end(&thread_w, false);
	for (int i = 0; i < FILLERS; i++)
		end(&fillers[i], false);
	close_pair(quitter_started);
	return 0;
}
