/* SPDX-License-Identifier: MIT */
/* Share mode in user space, the forwarding thread and its lifecycle. One
 * thread per creating process, every signal blocked, takes the creator's
 * process-directed signals from a signalfd of its own, only while the lock
 * is held, and hands them to share_ctx.c. See docs/design.md.
 *
 * - The thread keeps its descriptors in a table of its own
 *   (close_range(CLOSE_RANGE_UNSHARE), allowed where unshare() is not): its
 *   signalfd, epoll set, its end of the door, the writers and the status
 *   files of the other threads. close_range(), closefrom() and dup2() in
 *   the program cannot touch them, fork() copies none of them, and no
 *   check is made per signal. The program's table holds, besides the share
 *   fds, the callers' end of the door while the thread runs: a socket pair
 *   made before the thread, the one way a socket (a share fd's writer) can
 *   pass between two tables without privilege. A caller wakes the thread
 *   with a byte on it and sends a new share fd's writer over it.
 * - After each read it gives back what a live thread leaves unblocked
 *   (share_usual.c): the program keeps those signals.
 * - It sheds what is its starting thread's own (fsuid, CPUs, policy).
 * - The state belongs to the process whose word, in a page the kernel
 *   zeroes in every child, says so; a process that finds it 0 was forked
 *   without fork handlers and drops what it inherited.
 * - fork() is the lock and nothing more: the child starts with no share fds.
 * - exit() lets the thread write what is pending, as much as the writers
 *   hold, then the writers close with the process.
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
#include <sys/fsuid.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "share_ctx.h"
#include "share_thread.h"
#include "share_usual.h"
#include "tasks.h"

/* Bigger than any sanitizer needs; the thread itself uses a few KiB. */
#define FORWARD_STACK (256 * 1024)
#define FORWARD_EVENTS 16
/* The thread's name: seen in ps, and how copies of the library tell their
 * threads from the program's (alone()). */
#define FORWARD_NAME "sigfd-forward"
/* How often a thread left alone with a departed main thread looks again. */
#define ALONE_POLL_MS 20
/* How often the thread looks again at what it holds or leaves to the
 * program (see take_batch()), and at share fds it cannot watch for room. */
#define RECHECK_MS 10
/* The thread's descriptors take numbers from here up (half the soft limit
 * when that is lower): 0-2 stay empty, so that nothing written to stderr
 * from the thread lands in a writer, and ThreadSanitizer, which takes a
 * descriptor number for one object across tables, rarely sees the
 * program's files at the same numbers. */
#define THREAD_FD_BASE 256
#ifndef CLOSE_RANGE_UNSHARE
#define CLOSE_RANGE_UNSHARE (1U << 1) /* Linux 5.9 */
#endif

/* The forwarding thread's life. Every change is made by thread_moves(),
 * under the lock, and wakes whoever waits on moved:
 *   NONE -> STARTING        share_serve() created it
 *   STARTING -> SERVING     it made its table and reached its loop
 *   STARTING -> ENDED       it could not (start_error says why)
 *   SERVING -> EXITING      exit() asks it to write what is pending and stop
 *   SERVING, EXITING -> ENDED  it stopped; it is joined under the lock
 *   ... -> NONE             joined (join_ended()), detached when it ended
 *                           after our destructor, or a child's start_over()
 * What it reacts to besides: leader_gone (the main thread called
 * pthread_exit()), exit_ran (our destructor has run), door_lost, and the
 * catch-ups counted by asked and done. */
enum thread_state {
	THREAD_NONE,     /* no thread, none to join */
	THREAD_STARTING, /* created, making its own table */
	THREAD_SERVING,  /* serves the share fds */
	THREAD_EXITING,  /* exit(): takes what is pending, then stops */
	THREAD_ENDED,    /* stopped, not joined yet */
};

static struct {
	pthread_mutex_t lock; /* guards everything here and in share_ctx.c */
	pthread_cond_t moved; /* the thread has moved, or caught up */
	enum thread_state state;
	int start_error;      /* why it could not start, or 0 */
	bool leader_gone;     /* the main thread called pthread_exit() */
	bool exit_ran;        /* our destructor has run: nothing joins a thread after it */
	unsigned asked, done; /* catch-ups asked for by share_sync(), and made */
	unsigned starts;      /* threads started so far */
	pthread_t thread;
	/* In the thread's own table: its signalfd, epoll set, and its end of
	 * the door. */
	int sfd, ep, door;
	/* The callers' end of the door, in the program's table, and its
	 * identity: a number the program has closed and reused is not ours. */
	int door_caller;
	dev_t door_dev;
	ino_t door_ino;
	/* The thread's end in the program's table, from the door's making
	 * until the thread has its own table with a copy: a child forked
	 * meanwhile closes it, or it could take what callers send. */
	int door_spare;
	ino_t spare_ino;
	bool door_lost;       /* every copy of the callers' end is closed */
	int fd_base;          /* where the thread's descriptor numbers start */
	sigbits taking;       /* the mask sfd has */
	/* Signals left to the program: another thread leaves them unblocked
	 * and would act on them (share_usual.c). Kept out of sfd's mask while
	 * one is pending, so that the kernel delivers it. */
	sigbits left;
	/* Records taken that went neither to a share fd nor back to the
	 * queue, offered again first: real-time values refused for room (the
	 * queue would put them behind later values), with the share fd each
	 * was meant for, and what rt_sigqueueinfo() refused (RLIMIT_SIGPENDING).
	 * Never more than a batch. */
	struct sigfd_siginfo held[SHARE_BATCH];
	uint64_t held_meant[SHARE_BATCH];
	unsigned held_n;
} fwd = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.moved = PTHREAD_COND_INITIALIZER,
	.sfd = -1,
	.ep = -1,
	.door = -1,
	.door_caller = -1,
	.door_spare = -1,
};

static void thread_moves(enum thread_state to)
{
	fwd.state = to;
	pthread_cond_broadcast(&fwd.moved);
}

/* A thread is there and takes the lock: starting, serving or exiting. */
static bool thread_running(void)
{
	return fwd.state == THREAD_STARTING || fwd.state == THREAD_SERVING ||
	       fwd.state == THREAD_EXITING;
}

/* It has its own table and can be reached through the door. */
static bool thread_serving(void)
{
	return fwd.state == THREAD_SERVING || fwd.state == THREAD_EXITING;
}

/* Which process the state belongs to, without comparing pid numbers (a
 * child in a new pid namespace can have its parent's): a word in a page
 * the kernel zeroes in every child (MADV_WIPEONFORK, Linux 4.14), however
 * it was made, is OWNED in the process that owns the state and 0 in any
 * child not yet past its fork handler; CLAIMING while one thread takes the
 * state over. Where the page cannot be made, the word is a static one and
 * holds the owner's pid (-pid while claiming), as a last resort. */
#define OWNED 1
#define CLAIMING (-1)
static _Atomic int owner_fallback;
static _Atomic int *owner = &owner_fallback;
static bool owner_wiped;
static pthread_key_t leader_key;
static bool leader_key_made;

static int owned_value(void)
{
	return owner_wiped ? OWNED : (int)getpid();
}

static int claiming_value(void)
{
	return owner_wiped ? CLAIMING : -(int)getpid();
}

static void make_owner_word(void)
{
	void *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (page == MAP_FAILED)
		return;
	if (madvise(page, 4096, MADV_WIPEONFORK) < 0) {
		munmap(page, 4096);
		return;
	}
	owner = page;
	owner_wiped = true;
}

static pid_t own_tid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/* Is the callers' end of the door still at its number? The program may
 * have closed it (closefrom()) and the number gone to a file of its own:
 * false, errno EBADF; or fstat() failed, with its errno. */
static bool door_intact(void)
{
	struct stat st;

	if (fwd.door_caller >= 0 && fstat(fwd.door_caller, &st) < 0)
		return false; /* EBADF: closed, or its errno */
	if (fwd.door_caller < 0 || !S_ISSOCK(st.st_mode) || st.st_dev != fwd.door_dev ||
	    st.st_ino != fwd.door_ino) {
		errno = EBADF;
		return false;
	}
	return true;
}

/* Close the callers' end, if it is still ours, and forget it. */
static void close_door(void)
{
	if (door_intact())
		close(fwd.door_caller);
	fwd.door_caller = -1;
}

/* Close the thread's end in the program's table: the caller that made
 * it, under the lock, knows it is there; a child checks first (one forked
 * without fork handlers may have reused the number by now). */
static void close_spare(bool check)
{
	if (fwd.door_spare >= 0 &&
	    (!check || share_same_socket(fwd.door_spare, fwd.door_dev, fwd.spare_ino)))
		close(fwd.door_spare);
	fwd.door_spare = -1;
}

/* In a new process: no thread runs here, and the thread's table was the
 * parent's thread's: nothing of it is here to close but the copy of the
 * callers' end of the door. */
static void start_over(void)
{
	share_ctx_forget();
	close_door();
	close_spare(true);
	thread_moves(THREAD_NONE);
	fwd.leader_gone = fwd.exit_ran = false;
	fwd.sfd = fwd.ep = fwd.door = -1;
	fwd.door_lost = false;
	fwd.taking = fwd.left = 0;
	fwd.held_n = 0;
	if (leader_key_made && own_tid() == getpid())
		pthread_setspecific(leader_key, &fwd);
	atomic_store(owner, owned_value());
}

/* Forked without fork handlers (_Fork, raw clone, syscall(SYS_fork)): the
 * lock may be held by a thread that does not exist here. One caller takes
 * the state over; any other waits for it. */
static void claim_state(void)
{
	int me = owned_value(), claiming = claiming_value(), was = atomic_load(owner);

	if (was == me)
		return;
	if (was != claiming && atomic_compare_exchange_strong(owner, &was, claiming)) {
		pthread_mutex_init(&fwd.lock, NULL);
		pthread_cond_init(&fwd.moved, NULL);
		start_over();
		return;
	}
	while (atomic_load(owner) != me)
		sched_yield();
}

static void join_ended(void);

/* An ended thread is joined, and its door closed, at the next call. */
void share_lock(struct share_call *call)
{
	call->saved_errno = errno;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &call->cancel_state);
	claim_state();
	pthread_mutex_lock(&fwd.lock);
	join_ended();
}

void share_unlock(struct share_call *call, int ok)
{
	pthread_mutex_unlock(&fwd.lock);
	pthread_setcancelstate(call->cancel_state, NULL);
	if (ok)
		errno = call->saved_errno;
}

/* In the thread: give sfd the mask of what the share fds want now. */
static void update_mask(void)
{
	sigbits want = share_ctx_wanted() & ~fwd.left;
	sigset_t set;

	if (want == fwd.taking)
		return;
	share_set_of(&set, want);
	if (signalfd(fwd.sfd, &set, 0) >= 0) /* our own signalfd: cannot fail */
		fwd.taking = want;
}

bool share_mask_current(void)
{
	return (share_ctx_wanted() & ~fwd.left) == fwd.taking;
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

/* Room: never more than a batch in hand. */
static void hold(const struct sigfd_siginfo *r, uint64_t meant)
{
	fwd.held[fwd.held_n] = *r;
	fwd.held_meant[fwd.held_n++] = meant;
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
		hold(r, 0);
}

/* Take what the share fds have room for, at most limit records, and
 * deliver it after what was held; what found no share fd goes back, and so
 * does what the program means for itself (left to the kernel from now on).
 * A real-time value that found no room is held, to keep its order.
 * Returns the number of records taken from the kernel. */
static unsigned take_batch(unsigned limit)
{
	struct sigfd_siginfo recs[SHARE_BATCH];
	uint64_t meant[SHARE_BATCH];
	unsigned batch = share_ctx_batch(), n = fwd.held_n, m = 0, got = 0;
	sigbits seen = 0, mine;
	uint32_t back;

	memcpy(recs, fwd.held, n * sizeof recs[0]);
	memcpy(meant, fwd.held_meant, n * sizeof meant[0]);
	fwd.held_n = 0;
	if (batch > n && limit > 0) {
		ssize_t bytes;

		if (batch - n < limit)
			limit = batch - n;
		bytes = read(fwd.sfd, recs + n, limit * sizeof recs[0]);
		if (bytes > 0)
			got = (unsigned)((size_t)bytes / sizeof recs[0]);
	}
	memset(meant + n, 0, got * sizeof meant[0]);
	n += got;
	for (unsigned i = 0; i < n; i++)
		seen |= SIGBIT(recs[i].ssi_signo);
	/* Looked at after the read: a signal unblocked somewhere goes back
	 * to the kernel even when it came just after the last look. */
	mine = share_meant_for_program(seen);
	fwd.left |= mine;
	for (unsigned i = 0; i < n; i++)
		if (mine & SIGBIT(recs[i].ssi_signo)) {
			requeue(&recs[i]);
		} else if (m++ < i) {
			recs[m - 1] = recs[i];
			meant[m - 1] = meant[i];
		}
	back = share_ctx_deliver(recs, m, meant, fwd.ep);
	for (unsigned i = 0; i < m; i++) {
		if (!(back & ((uint32_t)1 << i)))
			continue;
		/* A real-time value refused for want of room waits for room
		 * here, ahead of the values queued after it: put back in the
		 * queue, it would go behind them. */
		if (recs[i].ssi_signo >= KERNEL_SIGRTMIN && meant[i])
			hold(&recs[i], meant[i]);
		else
			requeue(&recs[i]);
	}
	update_mask();
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

/* A thread that keeps the process going: a live one, but for the
 * forwarding threads (ours, or those of other copies of the library in this
 * process: a static archive linked in and libsigfd.so loaded with dlopen()),
 * which do not keep one another alive. The main thread that called
 * pthread_exit() is a zombie once it has gone. */
static bool keeps_process(const struct task *t, void *unused)
{
	(void)unused;
	return t && t->live && !t->forwarder;
}

/* Is the thread alone with other forwarding threads? Any doubt (no /proc,
 * no descriptor free) means no: forwarding goes on. No allocation. */
static bool alone(void)
{
	return tasks_each(false, fwd.fd_base, keeps_process, NULL) == 0;
}

static int high(int fd)
{
	return share_high_fd(fd, fwd.fd_base);
}

static int watch(int fd, void *tag)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = tag };

	return epoll_ctl(fwd.ep, EPOLL_CTL_ADD, fd, &ev);
}

/* In the new thread: a table of its own, rid of the program's files (it
 * must not keep one open), and its descriptors in it. The table is copied
 * up to the thread's end of the door (at door_at, made just before the
 * thread), which moves above that number; the copies of the program's
 * files below it are closed at once. Returns 0, or -1 and errno; *own says
 * whether the table is the thread's own (a failed unshare leaves it the
 * program's). */
static int make_own_table(bool *own, int door_at)
{
	struct rlimit lim;
	sigset_t none;
	int above, last_copy;

	/* Unshared and emptied above door_at in one call: close_range() is
	 * allowed where unshare() is not (the containers' default seccomp
	 * profiles). */
	*own = syscall(SYS_close_range, (unsigned)door_at + 1, ~0U, CLOSE_RANGE_UNSHARE) == 0;
	if (!*own)
		return -1;
	fwd.fd_base = THREAD_FD_BASE;
	if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur / 2 < THREAD_FD_BASE)
		fwd.fd_base = lim.rlim_cur / 2 > 3 ? (int)(lim.rlim_cur / 2) : 3;
	above = fwd.fd_base > door_at ? fwd.fd_base : door_at + 1;
	fwd.door = fcntl(door_at, F_DUPFD_CLOEXEC, above);
	last_copy = door_at;
	if (fwd.door < 0 && errno == EINVAL) {
		/* door_at is the last number the limit allows: it stays. */
		fwd.door = door_at;
		last_copy = door_at - 1;
	}
	if (last_copy >= 0)
		syscall(SYS_close_range, 0U, (unsigned)last_copy, 0U);
	sigemptyset(&none);
	fwd.sfd = high(signalfd(-1, &none, SFD_NONBLOCK | SFD_CLOEXEC));
	fwd.ep = high(epoll_create1(EPOLL_CLOEXEC));
	if (fwd.door < 0 || fwd.sfd < 0 || fwd.ep < 0 || watch(fwd.sfd, &fwd.sfd) < 0 ||
	    watch(fwd.door, &fwd.door) < 0)
		return -1;
	fwd.taking = 0;
	return 0;
}

/* Take what callers sent through the door: wake-up bytes, and writers to
 * adopt. A writer that could not be received (no number free) makes the
 * share fds still waiting fail. The door closed by every caller's copy
 * (the program closed its end) leaves the thread to look on its own. */
static void drain_door(void)
{
	union {
		char space[CMSG_SPACE(4 * sizeof(int))];
		struct cmsghdr align;
	} control;
	bool truncated = false;

	for (;;) {
		char bytes[64];
		struct iovec iov = { bytes, sizeof bytes };
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.space,
				      .msg_controllen = sizeof control.space };
		ssize_t n = recvmsg(fwd.door, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);

		if (n == 0) {
			epoll_ctl(fwd.ep, EPOLL_CTL_DEL, fwd.door, NULL);
			fwd.door_lost = true;
		}
		if (n <= 0)
			break;
		truncated |= (msg.msg_flags & MSG_CTRUNC) != 0;
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
			unsigned char *data = CMSG_DATA(c);
			size_t fds = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);

			if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
				continue;
			for (size_t i = 0; i < fds; i++) {
				int fd;

				memcpy(&fd, data + i * sizeof fd, sizeof fd);
				share_ctx_adopt_fd(fd, fwd.ep, fwd.fd_base);
			}
		}
	}
	if (truncated)
		share_ctx_refuse_waiting(EMFILE);
}

/* The thread serves the whole process: it drops what it inherited from
 * the thread that started it and that is that thread's own. Its
 * file-system ids follow its effective ones (setfsuid() is per thread);
 * it takes the main thread's CPUs (the process's placement: taskset, or
 * a program pinned whole), or any CPU where those cannot be read, and the
 * main thread's scheduling policy and nice value where that is allowed
 * (an unprivileged thread may not leave SCHED_IDLE). A seccomp filter
 * cannot be shed (sigfd(3), BUGS). */
static void shed_caller_attributes(void)
{
	struct sched_param param;
	cpu_set_t cpus;
	long policy;
	int nice;

	setfsuid(geteuid());
	setfsgid(getegid());
	if (sched_getaffinity(getpid(), sizeof cpus, &cpus) < 0)
		memset(&cpus, 0xff, sizeof cpus);
	(void)sched_setaffinity(0, sizeof cpus, &cpus);
	/* System calls: musl's wrappers only say ENOSYS (the policy is per
	 * thread). The policy before the nice value, which it may reset. */
	policy = syscall(SYS_sched_getscheduler, (long)getpid());
	if (policy >= 0 && syscall(SYS_sched_getparam, (long)getpid(), &param) == 0)
		(void)syscall(SYS_sched_setscheduler, 0L, policy, &param);
	errno = 0;
	nice = getpriority(PRIO_PROCESS, (id_t)getpid());
	if (errno == 0)
		(void)setpriority(PRIO_PROCESS, 0, nice);
}

static void *forward(void *door_at)
{
	struct epoll_event ev[FORWARD_EVENTS];
	bool own, more = false;
	int err, extra_rounds = 0;

	/* Seen in ps, top and /proc, and how other copies of the library know
	 * it. By itself: naming another thread takes a descriptor. */
	prctl(PR_SET_NAME, FORWARD_NAME);
	shed_caller_attributes();
	err = make_own_table(&own, (int)(intptr_t)door_at) < 0 ? errno : 0;
	if (!err && share_usual_start(fwd.fd_base) < 0)
		err = errno;
	pthread_mutex_lock(&fwd.lock);
	fwd.start_error = err;
	thread_moves(err ? THREAD_ENDED : THREAD_SERVING);
	/* Records held keep the thread until the queue takes them back. With
	 * the door closed by the program and no writer left, nothing can
	 * reach the thread: it ends once it holds nothing, and the next call
	 * starts another. */
	while (!err && (!share_ctx_empty() || fwd.held_n) && !(fwd.leader_gone && alone()) &&
	       !(fwd.door_lost && share_ctx_writers() == 0 && !fwd.held_n)) {
		int timeout = fwd.leader_gone || fwd.door_lost ? ALONE_POLL_MS : -1, n;
		bool signals = false, woken = false;

		if (fwd.left || fwd.held_n || share_ctx_unwatched())
			timeout = RECHECK_MS;
		if (more)
			timeout = 0; /* events left from the last wait */
		pthread_mutex_unlock(&fwd.lock);
		n = epoll_wait(fwd.ep, ev, FORWARD_EVENTS, timeout);
		pthread_mutex_lock(&fwd.lock);
		for (int i = 0; i < n; i++) {
			if (ev[i].data.ptr == &fwd.sfd)
				signals = true;
			else if (ev[i].data.ptr == &fwd.door)
				woken = true;
			else
				share_ctx_writer_event(ev[i].data.ptr, ev[i].events, fwd.ep);
		}
		/* New share fds' writers come through the door, with a catch-up
		 * asked for under the lock they were listed under: one that is
		 * asked for adopts them, so that it takes what they take too. */
		if (woken || fwd.done != fwd.asked)
			drain_door();
		if (share_ctx_unwatched())
			share_ctx_recheck_unwatched(fwd.ep);
		/* Before taking: a share fd just gone takes nothing more. */
		recheck_left();
		update_mask();
		if (fwd.state == THREAD_EXITING)
			break;
		if (signals || fwd.held_n || fwd.done != fwd.asked)
			take_batch(SHARE_BATCH);
		/* A catch-up is made once every event ready when it was asked
		 * for has been seen: a share fd closed before is gone after. */
		more = n == FORWARD_EVENTS && ++extra_rounds < 64;
		if (!more)
			extra_rounds = 0;
		if (fwd.done != fwd.asked && !more) {
			fwd.done = fwd.asked;
			pthread_cond_broadcast(&fwd.moved);
		}
	}
	/* At exit, and when the process ends because we are its last thread,
	 * what is pending for the share fds is written first, in one bounded
	 * step: as much as their writers hold. */
	if (!err && (fwd.state == THREAD_EXITING || !share_ctx_empty())) {
		unsigned long budget = share_ctx_room_for_exit(fwd.ep);
		unsigned got;

		update_mask();
		while (budget > 0 &&
		       (got = take_batch(budget < SHARE_BATCH ? (unsigned)budget : SHARE_BATCH)) > 0)
			budget -= got;
	}
	/* The table goes with the thread; closed here, the writers hang up at
	 * once, before the thread is joined. Never the program's table. */
	if (own) {
		share_ctx_close_all(fwd.ep);
		syscall(SYS_close_range, 0U, ~0U, 0U);
	}
	fwd.sfd = fwd.ep = fwd.door = -1;
	fwd.taking = fwd.left = 0;
	fwd.held_n = 0;
	/* Started by another thread while exit() runs, it would be left
	 * ended and never joined. */
	if (fwd.exit_ran) {
		pthread_detach(pthread_self());
		thread_moves(THREAD_NONE);
	} else {
		thread_moves(THREAD_ENDED);
	}
	pthread_mutex_unlock(&fwd.lock);
	return NULL;
}

/* Under the lock: a thread that has stopped no longer takes the lock, so
 * it can be joined here, and only here; its door goes with it, and the
 * thread's end of it, which the caller that started it may not have
 * closed yet (another caller can take the lock first). */
static void join_ended(void)
{
	if (thread_running())
		return;
	if (fwd.state == THREAD_ENDED && !pthread_equal(pthread_self(), fwd.thread)) {
		pthread_join(fwd.thread, NULL);
		thread_moves(THREAD_NONE);
	}
	close_door();
	close_spare(false);
}

/* The door for a new thread: the callers' end is kept, the thread's end
 * (returned, in the program's table) the thread copies; -1 and errno. */
static int make_door(void)
{
	struct stat st, spare;
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	if (fstat(sv[0], &st) < 0 || fstat(sv[1], &spare) < 0) {
		int err = errno;

		close(sv[0]);
		close(sv[1]);
		errno = err;
		return -1;
	}
	fwd.door_caller = sv[0];
	fwd.door_dev = st.st_dev;
	fwd.door_ino = st.st_ino;
	fwd.door_lost = false;
	fwd.door_spare = sv[1];
	fwd.spare_ino = spare.st_ino;
	return sv[1];
}

int share_serve(void)
{
	pthread_attr_t attr;
	sigset_t all, old;
	int err, thread_end = -1;

	/* A thread ending for exit() is let end; a share fd made meanwhile,
	 * by another thread, gets a thread of its own. */
	while (fwd.state == THREAD_EXITING)
		pthread_cond_wait(&fwd.moved, &fwd.lock);
	/* The program closed our end of the door (close_range() before an
	 * exec that failed, say): a thread left with no writer ends once it
	 * has caught up, and another starts; one still serving share fds
	 * cannot be reached. */
	if (thread_serving() && !door_intact() && errno == EBADF) {
		struct timespec until;

		/* Woken by the door's closing, it ends once it has no writer;
		 * waited for 1 s at most (one still serving share fds, holding
		 * records a full queue refuses, or kept by a copy of our end in
		 * a child forked without fork handlers, which hides the closing
		 * from it). */
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += 1;
		while (thread_running() &&
		       pthread_cond_timedwait(&fwd.moved, &fwd.lock, &until) != ETIMEDOUT)
			;
		if (thread_running()) {
			errno = EBADF;
			return -1;
		}
	}
	if (thread_running())
		goto started;
	join_ended();
	fwd.start_error = 0;
	thread_end = make_door();
	if (thread_end < 0)
		return -1;
	/* The thread blocks every signal, so it never runs a handler and
	 * takes signals only through its signalfd. Ours is restored at once. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_attr_init(&attr);
	if (err == 0) {
		/* Made with the caller's policy, which it may always have; the
		 * thread takes the process's (shed_caller_attributes()). */
		pthread_attr_setstacksize(&attr, FORWARD_STACK);
		err = pthread_create(&fwd.thread, &attr, forward, (void *)(intptr_t)thread_end);
		pthread_attr_destroy(&attr);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		close_spare(false);
		close_door();
		errno = err;
		return -1;
	}
	fwd.starts++;
	thread_moves(THREAD_STARTING);
started:
	/* Waiting drops the lock; the caller's share fd is listed already, so
	 * the thread stays. A sanitizer's runtime also
	 * allocates in a new thread before our code runs, under locks it does
	 * not take around fork() (AddressSanitizer before LLVM 18, gcc 12's
	 * included): a fork() made then would copy them held. */
	while (fwd.state == THREAD_STARTING)
		pthread_cond_wait(&fwd.moved, &fwd.lock);
	/* The thread has its own table now, with its copy of its end. */
	if (thread_end >= 0)
		close_spare(false);
	if (!fwd.start_error)
		return 0; /* it may have ended since: the share fd says whether it was adopted */
	join_ended();
	errno = fwd.start_error;
	return -1;
}

/* Send a byte through the door, with fd if it is not -1: 0, or -1 and
 * errno (EBADF: the program has closed our end). A full door wakes the
 * thread too, but cannot take a writer. */
static int door_send(int fd)
{
	union {
		char space[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} control;
	struct iovec iov = { "", 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (!door_intact())
		return -1;
	if (fd >= 0) {
		struct cmsghdr *c;

		memset(&control, 0, sizeof control);
		msg.msg_control = control.space;
		msg.msg_controllen = sizeof control.space;
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof fd);
		memcpy(CMSG_DATA(c), &fd, sizeof fd);
	}
	if (sendmsg(fwd.door_caller, &msg, MSG_DONTWAIT | MSG_NOSIGNAL) < 0 &&
	    (fd >= 0 || errno != EAGAIN))
		return -1;
	return 0;
}

static int wake_thread(void)
{
	return door_send(-1);
}

int share_hand_over(int writer)
{
	if (!thread_serving()) {
		errno = EAGAIN;
		return -1;
	}
	return door_send(writer);
}

/* A call that cannot wake the thread returns at once, the lock never let
 * go: the thread has seen nothing of what the caller changed, which the
 * caller then puts back. */
int share_sync(void)
{
	unsigned asked = ++fwd.asked;

	if (!thread_serving() || pthread_equal(pthread_self(), fwd.thread))
		return 0;
	if (wake_thread() < 0)
		return -1;
	while (thread_running() && (int)(fwd.done - asked) < 0)
		pthread_cond_wait(&fwd.moved, &fwd.lock);
	return 0;
}

/* fork(): the prepare handler takes the lock, so the thread is between
 * batches; the parent's handler gives it back. They run in every fork()
 * of the program, so errno is left as it was. */
static void before_fork(void)
{
	int saved = errno;

	claim_state();
	pthread_mutex_lock(&fwd.lock);
	errno = saved;
}

static void after_fork_in_parent(void)
{
	pthread_mutex_unlock(&fwd.lock);
}

static void after_fork_in_child(void)
{
	int cancel_state, saved = errno;

	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel_state);
	pthread_cond_init(&fwd.moved, NULL);
	start_over();
	pthread_mutex_unlock(&fwd.lock);
	pthread_setcancelstate(cancel_state, NULL);
	errno = saved;
}

/* pthread_exit() in the main thread: if the thread is all that is left, it
 * must end, as the process would without it. */
static void leader_exits(void *unused)
{
	struct share_call call;

	(void)unused;
	share_lock(&call);
	fwd.leader_gone = true;
	if (thread_serving())
		wake_thread(); /* no descriptor free: it looks at its next wake-up */
	share_unlock(&call, 1);
}

static void share_before_exit(void);

__attribute__((constructor)) static void share_init(void)
{
	make_owner_word();
	pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
	leader_key_made = pthread_key_create(&leader_key, leader_exits) == 0;
	if (leader_key_made && own_tid() == getpid())
		pthread_setspecific(leader_key, &fwd);
	(void)atexit(share_before_exit);
}

void share_end_idle(void)
{
	if (fwd.state == THREAD_SERVING && !pthread_equal(pthread_self(), fwd.thread) &&
	    share_sync() == 0)
		while (thread_running() && share_ctx_empty() && !fwd.held_n)
			pthread_cond_wait(&fwd.moved, &fwd.lock);
	join_ended();
}

/* exit(), before the program's destructors, and before the atexit
 * handlers registered ahead of ours (share_init(); in a static link, the
 * program's constructors run first): a thread whose share fds are all
 * closed is let end and joined now, its door with it, so that a program
 * that looks at its descriptors at exit finds only its own. One with a
 * share fd open is left to share_at_exit(), which hands over what is
 * pending once the program's destructors have run. Registered by the
 * constructor, never during exit(): musl blocks a registration made once
 * exit() has run its handlers. */
static void share_before_exit(void)
{
	struct share_call call;
	int was = atomic_load(owner);

	if (!owner_wiped && was != owned_value() && was != 0)
		return; /* as in share_at_exit() */
	share_lock(&call);
	/* Caught up while it still finds share fds gone. */
	for (unsigned was = ~0U; thread_running() && share_ctx_writers() < was;) {
		was = share_ctx_writers();
		if (was == 0 || share_sync() < 0)
			break;
	}
	share_end_idle();
	/* Records held back (RLIMIT_SIGPENDING) keep a thread with no writer:
	 * nothing can take them now; it stops as at exit(). */
	if (fwd.state == THREAD_SERVING && share_ctx_writers() == 0 &&
	    !pthread_equal(pthread_self(), fwd.thread)) {
		thread_moves(THREAD_EXITING);
		if (wake_thread() == 0)
			while (thread_running())
				pthread_cond_wait(&fwd.moved, &fwd.lock);
		join_ended();
	}
	share_unlock(&call, 1);
}

/* exit(): the thread writes the records of what is pending before the
 * writers close with the process; the lock is left free for any later
 * destructor or fork(). A process that has not used the state yet marks
 * that exit() is under way too. With glibc, priority 101, the last of the
 * priorities a program may use: destructors run from the highest down, so
 * the program's own (of a static link, where they share one list with
 * ours) have run and sent what they send before the hand-over. musl
 * deadlocks a fork() made in a destructor while another thread lives, so
 * there the thread is stopped at the default priority, before the
 * program's destructors that run after ours. Also run by dlclose(): the
 * thread-specific key goes, so that no thread's exit calls into the
 * unloaded object. */
#ifdef __GLIBC__
#define AT_EXIT destructor(101)
#else
#define AT_EXIT destructor
#endif
__attribute__((AT_EXIT)) static void share_at_exit(void)
{
	struct share_call call;
	int was = atomic_load(owner);

	if (leader_key_made) {
		pthread_key_delete(leader_key);
		leader_key_made = false;
	}
	/* The fallback word only: a process that inherited state it cannot
	 * claim safely leaves it alone. */
	if (!owner_wiped && was != owned_value() && was != 0)
		return;
	share_lock(&call);
	if (thread_serving() && !pthread_equal(pthread_self(), fwd.thread)) {
		/* Another thread of ours may start a new one meanwhile: that
		 * one is not waited for. A thread that cannot be woken (no
		 * descriptor free) is not waited for either: what the share
		 * fds hold is all they get. */
		unsigned starts = fwd.starts;

		thread_moves(THREAD_EXITING);
		if (wake_thread() == 0)
			while (thread_running() && fwd.starts == starts)
				pthread_cond_wait(&fwd.moved, &fwd.lock);
	}
	join_ended();
	fwd.exit_ran = true;
	share_ctx_reap();
	share_unlock(&call, 1);
}
