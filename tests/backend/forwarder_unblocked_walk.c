/* SPDX-License-Identifier: MIT */
/* The forwarding thread's look at which threads leave a signal unblocked
 * sees every live thread, even when threads exit while it lists them. The
 * kernel ends a getdents64() of /proc/self/task early when the thread it
 * stands on exits, or, when the thread it was to start the next call from
 * has exited, resumes by position, which the exits have moved on. Here
 * syscall() is wrapped (tests.mk): the forwarding thread's first
 * getdents64() is cut just before thread H, then threads A and H, listed
 * before W, exit; its next call starts past W. W is the one thread that
 * leaves SIGWINCH unblocked, with a handler. W waits in vfork() meanwhile
 * (only a fatal signal wakes it there), so the SIGWINCH sent stays pending
 * for the forwarding thread to read and judge: it must go back to the
 * kernel and reach W's handler once W returns, never be read from the
 * descriptor. Not under ThreadSanitizer or valgrind, which make vfork() a
 * fork(). The user-space backend only. */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <pthread.h>
#include <semaphore.h>
#include <sys/syscall.h>

#include "share_util.h"
#include "quitters.h"

static atomic_bool armed, cut_done;
static struct quitter thread_a, thread_h; /* the forwarding thread posts their quit */
static pid_t tid_w;
static int handled[2];

/* The bytes of the listing before H's entry; W must come after it. */
static long bytes_before_h(void)
{
	char buf[8192];
	long n, off = 0, before_h = -1;
	int dir = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	CHECK(dir >= 0);
	n = __real_syscall(SYS_getdents64, (long)dir, (long)buf, (long)sizeof buf);
	CHECK(n > 0);
	while (off < n) {
		struct linux_dirent64 *d = (void *)(buf + off);
		pid_t tid = (pid_t)atoi(d->name);

		if (tid == thread_h.tid)
			before_h = off;
		if (tid == tid_w)
			CHECK(before_h >= 0); /* W after H, A before it */
		if (tid == thread_a.tid)
			CHECK(before_h < 0);
		off += d->reclen;
	}
	CHECK(close(dir) == 0);
	CHECK(before_h > 0);
	return before_h;
}

long __wrap_syscall(long number, ...)
{
	long a[SYSCALL_NARGS], r;

	SYSCALL_ARGS(a, number);
	if (number != SYS_getdents64 || !atomic_exchange(&armed, false))
		return REAL_SYSCALL(number, a);
	r = __real_syscall(number, a[0], a[1], bytes_before_h());
	CHECK(sem_post(&thread_a.quit) == 0);
	CHECK(sem_post(&thread_h.quit) == 0);
	/* Gone from the kernel's list of threads, not just returned. */
	while (!gone(thread_a.tid) || !gone(thread_h.tid))
		sched_yield();
	atomic_store(&cut_done, true);
	return r;
}

static void on_winch(int sig)
{
	int saved = errno;

	(void)sig;
	(void)!write(handled[1], "h", 1);
	errno = saved;
}

struct in_vfork {
	int in[2], gate[2], back[2];
};

/* Leaves SIGWINCH unblocked, and waits in vfork() until the gate opens. */
static void *unblocked_in_vfork(void *arg)
{
	struct in_vfork *v = arg;
	sigset_t winch = set_of(SIGWINCH);
	int status;
	pid_t child;
	char c;

	tid_w = (pid_t)__real_syscall(SYS_gettid);
	CHECK(pthread_sigmask(SIG_UNBLOCK, &winch, NULL) == 0);
	child = vfork();
	if (child == 0) {
		/* Shares W's memory: system calls only. */
		if (write(v->in[1], "i", 1) != 1 || read(v->gate[0], &c, 1) != 1)
			_exit(1);
		_exit(0);
	}
	CHECK(child > 0);
	CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	put_byte(v->back[1]);
	return NULL;
}

int main(void)
{
	sigset_t winch = set_of(SIGWINCH);
	struct sigaction sa = { .sa_handler = on_winch };
	struct in_vfork v;
	pthread_t a, h, w;
	bool stolen;
	int fd;

	if (UNDER_TSAN || under_valgrind()) {
		printf("SKIPPED: ThreadSanitizer and valgrind make vfork() a fork(): no thread can wait with a signal unblocked\n");
		return 77;
	}
	CHECK(setenv("SIGFD_BACKEND", "user", 1) == 0);
	block_only(&winch);
	CHECK(pipe(handled) == 0 && pipe(quitter_started) == 0);
	CHECK(sem_init(&thread_a.quit, 0, 0) == 0 && sem_init(&thread_h.quit, 0, 0) == 0);
	CHECK(pipe(v.in) == 0 && pipe(v.gate) == 0 && pipe(v.back) == 0);
	CHECK(sigaction(SIGWINCH, &sa, NULL) == 0);
	fd = sigfd(&winch, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(fd >= 0);
	/* In this order in the kernel's list, after the forwarding thread. */
	CHECK(pthread_create(&a, NULL, wait_to_quit, &thread_a) == 0);
	get_byte(quitter_started[0]);
	CHECK(pthread_create(&h, NULL, wait_to_quit, &thread_h) == 0);
	get_byte(quitter_started[0]);
	CHECK(pthread_create(&w, NULL, unblocked_in_vfork, &v) == 0);
	get_byte(v.in[0]);
	atomic_store(&armed, true);
	CHECK(kill(getpid(), SIGWINCH) == 0);
	/* Judged: read from the descriptor, or given back to the kernel. */
	WAIT_UNTIL(atomic_load(&cut_done) && (poll_events(fd, POLLIN, 0) || pending_has(SIGWINCH)));
	stolen = poll_events(fd, POLLIN, 0) != 0;
	put_byte(v.gate[1]);
	if (stolen) {
		get_byte(v.back[0]);
		fprintf(stderr, "SIGWINCH, left unblocked by a thread listed after two that exited, "
				"was read from the descriptor\n");
		leak_check_off();
		return 1;
	}
	get_byte(handled[0]);
	get_byte(v.back[0]);
	CHECK(poll_events(fd, POLLIN, 0) == 0);
	CHECK(pthread_join(a, NULL) == 0 && pthread_join(h, NULL) == 0 && pthread_join(w, NULL) == 0);
	CHECK(close(fd) == 0);
	close_pair(handled);
	close_pair(quitter_started);
	sem_destroy(&thread_a.quit);
	sem_destroy(&thread_h.quit);
	close_pair(v.in);
	close_pair(v.gate);
	close_pair(v.back);
	return 0;
}
