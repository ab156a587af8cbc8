/* SPDX-License-Identifier: MIT */
/* Share mode in user space, the forwarding thread and its lifecycle. One
 * thread per creating process, every signal blocked, takes the creator's
 * process-directed signals from a signalfd of its own, only while the lock
 * is held, and hands them to share_ctx.c. See docs/design.md.
 *
 * - The state belongs to the process whose pid it records; a process that
 *   finds another pid there was forked without fork handlers and drops it.
 * - fork() is the lock and nothing more: the child closes its copies of the
 *   writers and of the thread's fds and starts with no share fds.
 * - exit() lets the thread write what is pending, as much as the pipes hold
 *   once grown to pipe-max-size, then the writers close with the process.
 * - The thread ends when the last share fd is gone, or when it is the last
 *   thread of a process whose main thread called pthread_exit(). It is
 *   joined under the lock, after its last use of it, by the next start or
 *   at exit (a process with no thread left forks more simply, and musl
 *   needs that to fork in a later destructor).
 * - The thread never calls the allocator: its first call would give it a
 *   malloc arena of its own (64 MiB of address space). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "share_ctx.h"
#include "share_tasks.h"
#include "share_thread.h"
#include "share_usual.h"

/* Bigger than any sanitizer needs; the thread itself uses a few KiB. */
#define FORWARD_STACK (256 * 1024)
#define FORWARD_EVENTS 16
/* The thread's name: seen in ps, and how copies of the library tell their
 * threads from the program's (alone()). */
#define FORWARD_NAME "sigfd-forward"
/* How often a thread left alone with a departed main thread looks again. */
#define ALONE_POLL_MS 20
/* How often the thread looks again at what it holds or leaves to the
 * program (see take_batch()). */
#define RECHECK_MS 10

static struct {
	pthread_mutex_t lock; /* guards everything here and in share_ctx.c */
	pthread_cond_t moved; /* the thread has started, or stopped */
	bool running;         /* a thread serves the share fds */
	bool started;         /* it has reached its loop */
	bool exiting;         /* exit(): take what is pending, then stop */
	bool leader_gone;     /* the main thread called pthread_exit() */
	bool retiring;        /* a thread given up has yet to close its descriptors */
	bool joinable;        /* thread is a thread of this process not joined yet */
	unsigned generation;  /* threads started or given up so far */
	unsigned asked, done; /* takes asked for by share_take_now(), and made */
	pthread_t thread;
	pid_t tid;            /* its thread id, the mark of its descriptors */
	int sfd, ep, wake;    /* the thread's signalfd, epoll set, wake-up eventfd */
	sigbits taking;       /* the mask sfd has */
	/* Signals left to the program: another thread leaves them unblocked
	 * and would act on them (share_usual.c). Kept out of sfd's mask while
	 * one is pending, so that the kernel delivers it. */
	sigbits left;
	/* Records taken that went neither to a share fd nor back to the
	 * queue (rt_sigqueueinfo() refused: RLIMIT_SIGPENDING): kept here
	 * and offered again first. Never more than a batch. */
	struct sigfd_siginfo held[SHARE_BATCH];
	unsigned held_n;
} fwd = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.moved = PTHREAD_COND_INITIALIZER,
	.sfd = -1,
	.ep = -1,
	.wake = -1,
};

/* The process the state belongs to: 0 before first use, -pid while a
 * process is taking over state it inherited. */
static _Atomic pid_t owner;
static pthread_key_t leader_key;

static pid_t own_tid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/* The thread's descriptors carry a mark no file of the program has: the
 * thread's id as their owner (F_SETOWN_EX; with no O_ASYNC it sends
 * nothing). A program that closed them (close_range(), closefrom()) and
 * opened other files at those numbers is told apart: the library never
 * writes, reads, changes or closes a file that is not its own, and never
 * waits for a thread that cannot be woken. Until the thread has started and
 * marked them, they are the ones share_serve() has just made. */
static void mark(int fd)
{
	struct f_owner_ex owner = { .type = F_OWNER_TID, .pid = fwd.tid };

	fcntl(fd, F_SETOWN_EX, &owner);
}

static bool marked(int fd, pid_t tid)
{
	struct f_owner_ex owner;
	int saved = errno;
	bool yes = fd >= 0 && fcntl(fd, F_GETOWN_EX, &owner) == 0 && owner.type == F_OWNER_TID &&
		   owner.pid == tid;

	errno = saved;
	return yes;
}

static bool ours(int fd)
{
	return fwd.started ? marked(fd, fwd.tid) : fd >= 0;
}

static bool thread_fds_ours(void)
{
	return ours(fwd.sfd) && ours(fwd.ep) && ours(fwd.wake);
}

/* Those the program has closed are forgotten, never closed again. */
static void close_thread_fds(void)
{
	if (ours(fwd.sfd))
		close(fwd.sfd);
	if (ours(fwd.ep))
		close(fwd.ep);
	if (ours(fwd.wake))
		close(fwd.wake);
	fwd.sfd = fwd.ep = fwd.wake = -1;
	fwd.taking = fwd.left = 0;
	fwd.held_n = 0;
}

/* In a new process: no thread runs here, the writers are the parent's. */
static void start_over(void)
{
	close_thread_fds();
	share_ctx_forget();
	fwd.running = fwd.exiting = fwd.leader_gone = fwd.joinable = false;
	if (own_tid() == getpid())
		pthread_setspecific(leader_key, &fwd);
	atomic_store(&owner, getpid());
}

/* Forked without fork handlers (_Fork, raw clone, syscall(SYS_fork)): the
 * lock may be held by a thread that does not exist here. One caller takes
 * the state over; any other waits for it. */
static void claim_state(void)
{
	pid_t me = getpid(), was = atomic_load(&owner);

	if (was == me)
		return;
	if (was != -me && atomic_compare_exchange_strong(&owner, &was, -me)) {
		pthread_mutex_init(&fwd.lock, NULL);
		pthread_cond_init(&fwd.moved, NULL);
		start_over();
		return;
	}
	while (atomic_load(&owner) != me)
		sched_yield();
}

void share_lock(struct share_call *call)
{
	call->saved_errno = errno;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &call->cancel_state);
	claim_state();
	pthread_mutex_lock(&fwd.lock);
	share_usual_forget();
}

void share_unlock(struct share_call *call, int ok)
{
	pthread_mutex_unlock(&fwd.lock);
	pthread_setcancelstate(call->cancel_state, NULL);
	if (ok)
		errno = call->saved_errno;
}

int share_update(void)
{
	sigbits want = share_ctx_wanted() & ~fwd.left;
	sigset_t set;

	if (!fwd.running || want == fwd.taking)
		return 0;
	if (!ours(fwd.sfd)) {
		errno = EBADF; /* the program closed it: share_serve() starts afresh */
		return -1;
	}
	share_set_of(&set, want);
	if (signalfd(fwd.sfd, &set, 0) < 0)
		return -1;
	fwd.taking = want;
	return 0;
}

/* Which member of siginfo's union a record's fields come from, as the
 * kernel's siginfo_layout() decides it (a fault reaches us only when a
 * process queues one to itself; seccomp's SIGSYS goes to a thread). */
enum layout { LAYOUT_KILL, LAYOUT_TIMER, LAYOUT_POLL, LAYOUT_FAULT, LAYOUT_CHLD };

static enum layout layout_of(int sig, int code)
{
	if (code > SI_USER && code < SI_KERNEL) {
		switch (sig) {
		case SIGILL:
		case SIGFPE:
		case SIGSEGV:
		case SIGBUS:
		case SIGTRAP:
			return LAYOUT_FAULT;
		case SIGCHLD:
			return LAYOUT_CHLD;
		}
		return code <= POLL_HUP ? LAYOUT_POLL : LAYOUT_KILL; /* F_SETSIG: any signal */
	}
	if (code == SI_TIMER)
		return LAYOUT_TIMER;
	return code == SI_SIGIO ? LAYOUT_POLL : LAYOUT_KILL; /* with a value if code < 0 */
}

/* Put a signal taken but not delivered back in the process's queue, with
 * every field the kernel gave it. Queued to our own thread id, which the
 * kernel requires for si_code >= 0 (kill(), SIGCHLD); it then goes to the
 * whole process. What the queue refuses (EAGAIN: the user's
 * RLIMIT_SIGPENDING is reached) is held and offered again later. */
static void requeue(const struct sigfd_siginfo *r)
{
	siginfo_t si;
	int sig = (int)r->ssi_signo, code = r->ssi_code;

	memset(&si, 0, sizeof si);
	si.si_signo = sig;
	si.si_errno = r->ssi_errno;
	si.si_code = code;
	switch (layout_of(sig, code)) {
	case LAYOUT_TIMER:
		si.si_timerid = (int)r->ssi_tid;
		si.si_overrun = (int)r->ssi_overrun;
		si.si_value.sival_ptr = (void *)(uintptr_t)r->ssi_ptr;
		break;
	case LAYOUT_POLL:
		si.si_band = r->ssi_band;
		si.si_fd = r->ssi_fd;
		break;
	case LAYOUT_FAULT:
		si.si_addr = (void *)(uintptr_t)r->ssi_addr;
		break;
	case LAYOUT_CHLD:
		si.si_pid = (pid_t)r->ssi_pid;
		si.si_uid = (uid_t)r->ssi_uid;
		si.si_status = r->ssi_status;
		si.si_utime = (clock_t)r->ssi_utime;
		si.si_stime = (clock_t)r->ssi_stime;
		break;
	case LAYOUT_KILL:
		si.si_pid = (pid_t)r->ssi_pid;
		si.si_uid = (uid_t)r->ssi_uid;
		if (code < 0)
			si.si_value.sival_ptr = (void *)(uintptr_t)r->ssi_ptr;
		break;
	}
	if (syscall(SYS_rt_sigqueueinfo, (long)own_tid(), (long)sig, &si) < 0)
		fwd.held[fwd.held_n++] = *r; /* room: never more than a batch in hand */
}

/* Take what the share fds have room for, at most limit records, and
 * deliver it after what was held; what found no share fd goes back, and so
 * does what the program means for itself (left to the kernel from now on).
 * Returns the number of records taken from the kernel. */
static unsigned take_batch(unsigned limit)
{
	struct sigfd_siginfo recs[SHARE_BATCH];
	unsigned batch = share_ctx_batch(), n = fwd.held_n, m = 0, got = 0;
	sigbits seen = 0, mine;
	uint32_t back;

	memcpy(recs, fwd.held, n * sizeof recs[0]);
	fwd.held_n = 0;
	if (batch > n && limit > 0) {
		ssize_t bytes;

		if (batch - n < limit)
			limit = batch - n;
		bytes = read(fwd.sfd, recs + n, limit * sizeof recs[0]);
		if (bytes > 0)
			got = (unsigned)((size_t)bytes / sizeof recs[0]);
	}
	n += got;
	for (unsigned i = 0; i < n; i++)
		seen |= SIGBIT(recs[i].ssi_signo);
	/* Looked at after the read: a signal unblocked somewhere goes back
	 * to the kernel even when it came just after the last look. */
	mine = share_meant_for_program(seen);
	fwd.left |= mine;
	for (unsigned i = 0; i < n; i++)
		if (mine & SIGBIT(recs[i].ssi_signo))
			requeue(&recs[i]);
		else if (m++ < i)
			recs[m - 1] = recs[i];
	back = share_ctx_deliver(recs, m, fwd.ep);
	for (unsigned i = 0; i < m; i++)
		if (back & ((uint32_t)1 << i))
			requeue(&recs[i]);
	share_update();
	return got;
}

/* A signal left to the program is taken again once it is no longer
 * pending, or once no thread leaves it unblocked. */
static void recheck_left(void)
{
	sigset_t pending;
	sigbits still;

	if (!fwd.left || sigpending(&pending) < 0)
		return;
	still = share_bits(&pending) & fwd.left;
	fwd.left = share_meant_for_program(still);
}

/* Is thread tid, which still lives, a forwarding thread: ours, or that of
 * another copy of the library in this process (a static archive linked in
 * and libsigfd.so loaded with dlopen())? Such threads do not keep one
 * another alive. Its name tells; when it cannot be read (no descriptor
 * free), the thread counts as one of the program's: forwarding goes on. */
static bool forwarder(int task_dir, const char *tid)
{
	static const char name[] = FORWARD_NAME "\n";
	char path[64], comm[sizeof name];
	ssize_t n;
	int fd;

	snprintf(path, sizeof path, "%s/comm", tid);
	fd = openat(task_dir, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, comm, sizeof comm);
	close(fd);
	return n == (ssize_t)sizeof name - 1 && memcmp(comm, name, sizeof name - 1) == 0;
}

/* Does any thread of the program still live, besides the main thread that
 * called pthread_exit() and the forwarding threads? Asked with tgkill(),
 * which needs no descriptor (a thread other than the main thread is gone
 * from the kernel as soon as it has exited); any doubt, /proc missing or
 * the table full, means yes. No allocation. */
/* A thread that keeps the process going: any but the main thread and the
 * forwarding threads. */
static bool keeps_process(int dir, pid_t tid, const char *name, void *unused)
{
	pid_t pid = getpid();

	(void)unused;
	return tid != pid && (syscall(SYS_tgkill, (long)pid, (long)tid, 0L) == 0 || errno != ESRCH) &&
	       !forwarder(dir, name);
}

static bool alone(void)
{
	return share_each_other_task(keeps_process, NULL) == 0;
}

static void *forward(void *unused)
{
	struct epoll_event ev[FORWARD_EVENTS];
	unsigned generation;
	bool swept = false;
	int sfd, ep, wake;
	pid_t me = own_tid();

	(void)unused;
	pthread_mutex_lock(&fwd.lock);
	generation = fwd.generation;
	sfd = fwd.sfd;
	ep = fwd.ep;
	wake = fwd.wake;
	fwd.tid = me;
	mark(fwd.sfd);
	mark(fwd.ep);
	mark(fwd.wake);
	fwd.started = true;
	pthread_cond_broadcast(&fwd.moved);
	/* Records held keep the thread until the queue takes them back. */
	while ((!share_ctx_empty() || fwd.held_n) && !(fwd.leader_gone && alone())) {
		int timeout = fwd.leader_gone ? ALONE_POLL_MS : -1, n, err;
		bool signals = false;

		if (fwd.left || fwd.held_n)
			timeout = RECHECK_MS;
		/* The one descriptor used whatever happened: the others are read
		 * only when an event of their own (their file, ours then) says
		 * so, and each write end is checked as it is written. */
		if ((swept = !ours(ep)))
			break;
		pthread_mutex_unlock(&fwd.lock);
		n = epoll_wait(ep, ev, FORWARD_EVENTS, timeout);
		err = errno;
		pthread_mutex_lock(&fwd.lock);
		/* Given up while we slept (some of our descriptors were closed
		 * under us): the state is another thread's now; what is left of
		 * ours is closed here. */
		if (fwd.generation != generation) {
			if (marked(sfd, me))
				close(sfd);
			if (marked(wake, me))
				close(wake);
			if (marked(ep, me))
				close(ep);
			fwd.retiring = false;
			pthread_cond_broadcast(&fwd.moved);
			pthread_mutex_unlock(&fwd.lock);
			return NULL;
		}
		if ((swept = n < 0 && err != EINTR))
			break;
		for (int i = 0; i < n; i++) {
			uint64_t count;

			if (ev[i].data.ptr == &fwd.sfd)
				signals = true;
			else if (ev[i].data.ptr == &fwd.wake)
				(void)!read(fwd.wake, &count, sizeof count);
			else
				share_ctx_writer_event(ev[i].data.ptr, ev[i].events, fwd.ep);
		}
		/* Before taking: a share fd just gone takes nothing more. */
		recheck_left();
		share_update();
		if (fwd.exiting)
			break;
		if (signals || ((fwd.held_n || fwd.done != fwd.asked) && ours(fwd.sfd)))
			take_batch(SHARE_BATCH);
		if (fwd.done != fwd.asked) {
			fwd.done = fwd.asked;
			pthread_cond_broadcast(&fwd.moved);
		}
	}
	/* At exit, and when the process ends because we are its last thread,
	 * what is pending for the share fds is written first, in one bounded
	 * step: as much as their pipes hold once grown. */
	if (!swept && ours(fwd.ep) && ours(fwd.sfd) && (fwd.exiting || !share_ctx_empty())) {
		unsigned long budget = share_ctx_grow_for_exit(fwd.ep);
		unsigned got;

		share_update();
		while (budget > 0 &&
		       (got = take_batch(budget < SHARE_BATCH ? (unsigned)budget : SHARE_BATCH)) > 0)
			budget -= got;
	}
	close_thread_fds();
	fwd.running = false;
	pthread_cond_broadcast(&fwd.moved);
	pthread_mutex_unlock(&fwd.lock);
	return NULL;
}

/* Under the lock: a thread that has stopped no longer takes the lock, so
 * it can be joined here, and only here. */
static void join_ended(void)
{
	if (fwd.joinable && !fwd.running && !pthread_equal(pthread_self(), fwd.thread)) {
		pthread_join(fwd.thread, NULL);
		fwd.joinable = false;
	}
}

static int watch(int fd, void *tag)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = tag };

	return epoll_ctl(fwd.ep, EPOLL_CTL_ADD, fd, &ev);
}

static void wake_thread(void);

/* The program closed some of the running thread's descriptors: it cannot
 * serve on. While its eventfd is left it is woken, finds a new generation,
 * closes what is left of its own and ends, and is joined. Otherwise it is
 * let go (detached): if the program closed them all, it sleeps in an empty
 * epoll_wait() until the process ends (sigfd(3) BUGS). */
static void give_up_thread(void)
{
	bool can_wake = ours(fwd.wake) && !pthread_equal(pthread_self(), fwd.thread);

	fwd.generation++;
	fwd.running = false;
	if (can_wake) {
		fwd.retiring = true;
		wake_thread();
		while (fwd.retiring)
			pthread_cond_wait(&fwd.moved, &fwd.lock);
		pthread_join(fwd.thread, NULL);
	} else if (fwd.joinable)
		pthread_detach(fwd.thread);
	fwd.joinable = false;
	fwd.sfd = fwd.ep = fwd.wake = -1;
	fwd.taking = 0;
	pthread_cond_broadcast(&fwd.moved);
}

int share_serve(void)
{
	pthread_attr_t attr;
	sigset_t none, all, old;
	int err;

	if (fwd.running && thread_fds_ours())
		return fwd.ep;
	if (fwd.running)
		give_up_thread();
	join_ended();
	sigemptyset(&none);
	fwd.sfd = signalfd(-1, &none, SFD_NONBLOCK | SFD_CLOEXEC);
	fwd.wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	fwd.ep = epoll_create1(EPOLL_CLOEXEC);
	if (fwd.sfd < 0 || fwd.wake < 0 || fwd.ep < 0 || watch(fwd.sfd, &fwd.sfd) < 0 ||
	    watch(fwd.wake, &fwd.wake) < 0) {
		err = errno;
		goto fail;
	}
	/* The thread blocks every signal, so it never runs a handler and
	 * takes signals only through its signalfd. Ours is restored at once. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_attr_init(&attr);
	if (err == 0) {
		pthread_attr_setstacksize(&attr, FORWARD_STACK);
		err = pthread_create(&fwd.thread, &attr, forward, NULL);
		pthread_attr_destroy(&attr);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err == 0) {
		pthread_setname_np(fwd.thread, FORWARD_NAME); /* seen in ps, top, /proc */
		fwd.running = fwd.joinable = true;
		fwd.exiting = fwd.started = false;
		fwd.generation++;
		/* Share fds of a thread given up: those whose writers are still
		 * ours join the new set. */
		share_ctx_adopt(fwd.ep);
		return fwd.ep;
	}
fail:
	fwd.started = false; /* ours() then takes what we just made for ours */
	close_thread_fds();
	errno = err;
	return -1;
}

/* A sanitizer's runtime allocates in a new thread before our code runs,
 * under locks it does not take around fork() (AddressSanitizer before LLVM
 * 18, gcc 12's included): a fork() made then copies them held and the
 * child hangs in its first malloc(). So sigfd() returns once the thread
 * runs our code. Waiting drops the lock; the caller's share fd is already
 * listed, so the thread stays. */
void share_await_start(void)
{
	unsigned generation = fwd.generation;

	while (fwd.running && !fwd.started && fwd.generation == generation)
		pthread_cond_wait(&fwd.moved, &fwd.lock);
}

static void wake_thread(void)
{
	uint64_t one = 1;

	if (ours(fwd.wake))
		(void)!write(fwd.wake, &one, sizeof one); /* a full counter wakes it too */
}

void share_take_now(void)
{
	unsigned asked = ++fwd.asked;

	if (!fwd.running || pthread_equal(pthread_self(), fwd.thread) || !ours(fwd.wake))
		return; /* a thread that cannot be woken is not waited for */
	wake_thread();
	while (fwd.running && (int)(fwd.done - asked) < 0)
		pthread_cond_wait(&fwd.moved, &fwd.lock);
}

/* fork(): the prepare handler takes the lock, so the thread is between
 * batches; the parent's handler gives it back. */
static void before_fork(void)
{
	claim_state();
	pthread_mutex_lock(&fwd.lock);
}

static void after_fork_in_parent(void)
{
	pthread_mutex_unlock(&fwd.lock);
}

static void after_fork_in_child(void)
{
	int cancel_state;

	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel_state);
	pthread_cond_init(&fwd.moved, NULL);
	start_over();
	pthread_mutex_unlock(&fwd.lock);
	pthread_setcancelstate(cancel_state, NULL);
}

/* pthread_exit() in the main thread: if the thread is all that is left, it
 * must end, as the process would without it. */
static void leader_exits(void *unused)
{
	struct share_call call;

	(void)unused;
	share_lock(&call);
	fwd.leader_gone = true;
	if (fwd.running)
		wake_thread();
	share_unlock(&call, 1);
}

__attribute__((constructor)) static void share_init(void)
{
	pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
	if (pthread_key_create(&leader_key, leader_exits) == 0 && own_tid() == getpid())
		pthread_setspecific(leader_key, &fwd);
}

/* exit(): the thread writes the records of what is pending before the
 * writers close with the process; the lock is left free for any later
 * destructor or fork(). Nothing of ours runs in a process that only
 * inherited the state. */
__attribute__((destructor)) static void share_at_exit(void)
{
	struct share_call call;

	if (atomic_load(&owner) != getpid())
		return;
	share_lock(&call);
	/* A thread whose descriptors the program closed cannot be woken. */
	if (fwd.running && !thread_fds_ours())
		give_up_thread();
	if (fwd.running && !pthread_equal(pthread_self(), fwd.thread)) {
		/* Another thread of ours may start a new one meanwhile: that one
		 * is not waited for. */
		unsigned generation = fwd.generation;

		fwd.exiting = true;
		wake_thread();
		while (fwd.running && fwd.generation == generation)
			pthread_cond_wait(&fwd.moved, &fwd.lock);
	}
	join_ended();
	share_ctx_reap();
	share_unlock(&call, 1);
}
