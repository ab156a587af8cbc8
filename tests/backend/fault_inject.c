/* SPDX-License-Identifier: MIT */
/* Fault injection: the Nth call the library makes to socketpair, signalfd,
 * epoll_create1, epoll_ctl, pthread_create, calloc, fcntl, fstat, open,
 * close_range (unsharing the table) or sendmsg (any message to the door,
 * or one passing a descriptor) fails with an errno that call can give, for
 * every N the operation reaches,
 * in sigfd() and sigfd_setmask(), local and share mode (the user-space
 * backend), for the first share fd of a process (the thread starts) and a
 * later one. Each failure must give -1 with the injected errno, one that
 * sigfd(3) ERRORS lists; leave no descriptor, thread or allocation behind;
 * lose no signal already queued (pending in the kernel, or records already
 * in a share fd); and leave a failed sigfd_setmask()'s mask unchanged.
 * The wrappers are linked with -Wl,--wrap (tests.mk): only this
 * program sees them. Calls made by the thread that arms them count, and so
 * do the forwarding thread's while that thread is inside the operation
 * (the thread makes its own descriptors and adopts each new write end):
 * its failures reach the caller as the call's errno. */
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "share_util.h"
#include "syscall_args.h"

#ifndef CLOSE_RANGE_UNSHARE
#define CLOSE_RANGE_UNSHARE (1U << 1) /* Linux 5.9 */
#endif

enum fn { F_SOCKETPAIR, F_SIGNALFD, F_EPOLL_CREATE1, F_EPOLL_CTL, F_PTHREAD_CREATE,
	  F_CALLOC, F_FCNTL, F_FSTAT, F_OPEN, F_CLOSE_RANGE, F_SENDMSG, F_SEND_RIGHTS, F_COUNT };
static const char *const fn_name[F_COUNT] = { "socketpair", "signalfd", "epoll_create1", "epoll_ctl",
					      "pthread_create", "calloc", "fcntl", "fstat",
					      "open", "close_range", "sendmsg", "sendmsg with SCM_RIGHTS" };

/* Armed in one thread only; the forwarding thread counts too while that
 * thread is inside the operation. */
static _Thread_local bool injecting, forwarding;
static atomic_bool in_operation;

/* A forwarding thread started during the operation is marked before it
 * runs (it is named only after pthread_create() returns); one already
 * running is known by its name. */
static bool forwarder_thread(void)
{
	char name[17] = "";

	return forwarding || (prctl(PR_GET_NAME, name) == 0 && strcmp(name, "sigfd-forward") == 0);
}
static struct {
	enum fn fn;
	unsigned fail_at; /* the call of fn that fails, from 1; 0: none */
	int err;
	unsigned calls[F_COUNT];
	int fired_err; /* the errno the failed call gave, 0 if none failed */
} inj;

static bool fault(enum fn f)
{
	if (!injecting && !(atomic_load(&in_operation) && forwarder_thread()))
		return false;
	if (++inj.calls[f] != inj.fail_at || f != inj.fn)
		return false;
	inj.fired_err = inj.err;
	return true;
}

int __real_socketpair(int domain, int type, int protocol, int sv[2]);
int __real_signalfd(int fd, const sigset_t *mask, int flags);
int __real_epoll_create1(int flags);
int __real_epoll_ctl(int ep, int op, int fd, struct epoll_event *ev);
int __real_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *), void *arg);
void *__real_calloc(size_t n, size_t size);
void __real_free(void *p);
int __real_fcntl(int fd, int cmd, ...);
int __real_fstat(int fd, struct stat *st);
int __real_open(const char *path, int flags, ...);
ssize_t __real_sendmsg(int fd, const struct msghdr *msg, int flags);

#define FAIL_WITH(f, e)                        \
	do {                                   \
		if (fault(f)) {                \
			errno = inj.fired_err = (e); \
			return -1;             \
		}                              \
	} while (0)

int __wrap_socketpair(int domain, int type, int protocol, int sv[2]);
int __wrap_socketpair(int domain, int type, int protocol, int sv[2])
{
	FAIL_WITH(F_SOCKETPAIR, inj.err);
	return __real_socketpair(domain, type, protocol, sv);
}

/* Only a new signalfd can fail: a mask change of the thread's own cannot
 * (the kernel checks only the fd and the size), and is not counted. */
int __wrap_signalfd(int fd, const sigset_t *mask, int flags);
int __wrap_signalfd(int fd, const sigset_t *mask, int flags)
{
	if (fd == -1)
		FAIL_WITH(F_SIGNALFD, inj.err);
	return __real_signalfd(fd, mask, flags);
}

int __wrap_open(const char *path, int flags, ...);
int __wrap_open(const char *path, int flags, ...)
{
	va_list ap;
	int mode;

	va_start(ap, flags);
	mode = (flags & O_CREAT) ? va_arg(ap, int) : 0;
	va_end(ap);
	FAIL_WITH(F_OPEN, inj.err);
	return __real_open(path, flags, mode);
}

/* close_range() has no wrapper in every C library: the library makes the
 * system call. Only the call that unshares the table is counted. */
long __wrap_syscall(long number, ...);
long __wrap_syscall(long number, ...)
{
	long a[SYSCALL_NARGS];

	SYSCALL_ARGS(a, number);
	if (number == SYS_close_range && (a[2] & CLOSE_RANGE_UNSHARE))
		FAIL_WITH(F_CLOSE_RANGE, inj.err);
	return REAL_SYSCALL(number, a);
}

/* Each message to the door counts as a sendmsg; one that passes a
 * descriptor (a new share fd's writer) also as one with SCM_RIGHTS. */
ssize_t __wrap_sendmsg(int fd, const struct msghdr *msg, int flags);
ssize_t __wrap_sendmsg(int fd, const struct msghdr *msg, int flags)
{
	if (msg->msg_controllen > 0)
		FAIL_WITH(F_SEND_RIGHTS, inj.err);
	FAIL_WITH(F_SENDMSG, inj.err);
	return __real_sendmsg(fd, msg, flags);
}

int __wrap_epoll_create1(int flags);
int __wrap_epoll_create1(int flags)
{
	FAIL_WITH(F_EPOLL_CREATE1, inj.err);
	return __real_epoll_create1(flags);
}

int __wrap_epoll_ctl(int ep, int op, int fd, struct epoll_event *ev);
int __wrap_epoll_ctl(int ep, int op, int fd, struct epoll_event *ev)
{
	FAIL_WITH(F_EPOLL_CTL, inj.err);
	return __real_epoll_ctl(ep, op, fd, ev);
}

/* The thread started inside an operation: the library's forwarding
 * thread (it starts one at a time, under its lock). */
static struct {
	void *(*start)(void *);
	void *arg;
} started;

static void *marked_start(void *unused)
{
	(void)unused;
	forwarding = true;
	return started.start(started.arg);
}

int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *), void *arg);
int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *), void *arg)
{
	if (fault(F_PTHREAD_CREATE))
		return inj.err; /* it returns the error; errno is not its business */
	if (!injecting)
		return __real_pthread_create(t, a, f, arg);
	started.start = f;
	started.arg = arg;
	return __real_pthread_create(t, a, marked_start, NULL);
}

/* The library's allocations, to find one it never freed. */
#define TRACKED 256
static void *live_allocs[TRACKED];
static pthread_mutex_t allocs_lock = PTHREAD_MUTEX_INITIALIZER;

void *__wrap_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size)
{
	void *p;

	if (fault(F_CALLOC)) {
		errno = inj.fired_err = ENOMEM;
		return NULL;
	}
	p = __real_calloc(n, size);
	pthread_mutex_lock(&allocs_lock);
	for (int i = 0; p && i < TRACKED; i++)
		if (!live_allocs[i]) {
			live_allocs[i] = p;
			break;
		}
	pthread_mutex_unlock(&allocs_lock);
	return p;
}

void __wrap_free(void *p);
void __wrap_free(void *p)
{
	pthread_mutex_lock(&allocs_lock);
	for (int i = 0; p && i < TRACKED; i++)
		if (live_allocs[i] == p)
			live_allocs[i] = NULL;
	pthread_mutex_unlock(&allocs_lock);
	__real_free(p);
}

static int live_allocations(void)
{
	int n = 0;

	pthread_mutex_lock(&allocs_lock);
	for (int i = 0; i < TRACKED; i++)
		n += live_allocs[i] != NULL;
	pthread_mutex_unlock(&allocs_lock);
	return n;
}

/* fcntl and fstat of a descriptor fail with EBADF when another thread
 * closes it meanwhile: sigfd_setmask() can meet that, sigfd() cannot (its
 * descriptors are not yet known to anyone), and fcntl has nothing else. */
int __wrap_fcntl(int fd, int cmd, ...);
int __wrap_fcntl(int fd, int cmd, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	FAIL_WITH(F_FCNTL, inj.err);
	return __real_fcntl(fd, cmd, arg);
}

int __wrap_fstat(int fd, struct stat *st);
int __wrap_fstat(int fd, struct stat *st)
{
	FAIL_WITH(F_FSTAT, inj.err);
	return __real_fstat(fd, st);
}

/* The faults, each with the errno its call can give, and where. */
enum { IN_OPEN = 1, IN_SETMASK = 2, ANYWHERE = 3 };
static const struct fault {
	enum fn fn;
	int err;
	int where;
} faults[] = {
	{ F_SOCKETPAIR, EMFILE, ANYWHERE },    { F_SOCKETPAIR, ENFILE, ANYWHERE },
	{ F_SOCKETPAIR, ENOMEM, ANYWHERE },
	{ F_SIGNALFD, EMFILE, ANYWHERE },      { F_SIGNALFD, ENFILE, ANYWHERE },
	{ F_SIGNALFD, ENOMEM, ANYWHERE },      { F_SIGNALFD, ENODEV, ANYWHERE },
	{ F_EPOLL_CREATE1, EMFILE, ANYWHERE },
	{ F_EPOLL_CREATE1, ENFILE, ANYWHERE }, { F_EPOLL_CREATE1, ENOMEM, ANYWHERE },
	{ F_EPOLL_CTL, ENOMEM, ANYWHERE },     { F_EPOLL_CTL, ENOSPC, ANYWHERE },
	{ F_PTHREAD_CREATE, EAGAIN, ANYWHERE }, { F_CALLOC, ENOMEM, ANYWHERE },
	{ F_FCNTL, EBADF, IN_SETMASK },        { F_FSTAT, ENOMEM, IN_OPEN },
	{ F_FSTAT, EBADF, IN_SETMASK },
	/* The thread moves its descriptors up with F_DUPFD. */
	{ F_FCNTL, EMFILE, IN_OPEN },
	/* The thread looks at the other threads through /proc. */
	{ F_OPEN, EMFILE, ANYWHERE },          { F_OPEN, ENFILE, ANYWHERE },
	{ F_OPEN, ENOMEM, ANYWHERE },          { F_OPEN, ENOENT, ANYWHERE },
	/* The thread's own table: no close_range (before 5.9), or one a
	 * seccomp filter refuses. */
	{ F_CLOSE_RANGE, ENOMEM, IN_OPEN },    { F_CLOSE_RANGE, ENOSYS, IN_OPEN },
	{ F_CLOSE_RANGE, EPERM, IN_OPEN },
	/* The door: a new writer handed over, a wake-up. */
	{ F_SENDMSG, ENOBUFS, ANYWHERE },      { F_SENDMSG, ENOMEM, ANYWHERE },
	{ F_SEND_RIGHTS, ETOOMANYREFS, IN_OPEN },
};
static int where_now;
/* Per fault, how often it fired in either mode: one that never does names
 * a call the library no longer makes (an unshare() it once made). */
static unsigned fired_by[sizeof faults / sizeof faults[0]];

/* sigfd(3) ERRORS. */
static bool open_errno_listed(int e, bool share)
{
	if (e == EINVAL || e == EMFILE || e == ENFILE || e == ENOMEM || e == ENODEV)
		return true;
	return share && (e == ENOSYS || e == EACCES || e == EAGAIN || e == ENOBUFS || e == ENOSPC ||
			 e == ENOENT || e == EBADF || e == EPERM || e == ETOOMANYREFS);
}

static bool setmask_errno_listed(int e)
{
	return e == EBADF || e == EINVAL || e == EPERM || e == ENOMEM || e == ENOBUFS;
}

/* What a failure must leave as it was. */
struct snapshot {
	unsigned char fds[LEAK_CHECK_FDS];
	int threads;
	int allocs;
};

static void snap(struct snapshot *s)
{
	for (int fd = 0; fd < LEAK_CHECK_FDS; fd++)
		s->fds[fd] = fcntl(fd, F_GETFD) >= 0;
	s->threads = count_entries("/proc/self/task");
	s->allocs = live_allocations();
}

static bool same(const struct snapshot *a)
{
	struct snapshot b;

	snap(&b);
	/* The library may free what an earlier close left (share_ctx_reap). */
	return memcmp(a->fds, b.fds, sizeof b.fds) == 0 && a->threads == b.threads &&
	       b.allocs <= a->allocs;
}

/* As before, or within 10 s (a share fd's writer goes with the thread's
 * next look; an ended thread leaves /proc a moment later); else say what. */
static bool settles(const struct snapshot *a);

static void report(const struct snapshot *a)
{
	struct snapshot b;

	snap(&b);
	for (int fd = 0; fd < LEAK_CHECK_FDS; fd++)
		if (a->fds[fd] != b.fds[fd])
			fprintf(stderr, "  fd %d %s\n", fd, b.fds[fd] ? "left open" : "closed");
	fprintf(stderr, "  threads %d -> %d, allocations %d -> %d\n", a->threads, b.threads,
		a->allocs, b.allocs);
}

static bool settles(const struct snapshot *a)
{
	for (int waited = 0; waited < 2000; waited++) {
		if (same(a))
			return true;
		poll(NULL, 0, 5);
	}
	report(a);
	return false;
}

static const char *mode_name;
static const char *scenario;
static int failures, injected;

#define EXPECT(cond, ...)                                                               \
	do {                                                                            \
		if (!(cond)) {                                                          \
			fprintf(stderr, "%s mode, %s, call %u of %s failing with %s: ",  \
				mode_name, scenario, inj.fail_at, fn_name[inj.fn],      \
				strerror(inj.fired_err ? inj.fired_err : inj.err));                                   \
			fprintf(stderr, __VA_ARGS__);                                   \
			fputc('\n', stderr);                                            \
			failures++;                                                     \
		}                                                                       \
	} while (0)

/* Synchronise with the forwarding thread: any call that takes the share
 * lock returns once the thread is between batches. A pipe is no sigfd. */
static void sync_thread(void)
{
	int p[2];
	sigset_t none;

	sigemptyset(&none);
	CHECK(pipe(p) == 0);
	CHECK(sigfd_setmask(p[0], &none) == -1 && errno == EINVAL);
	close_pair(p);
}

/* Read records from fd until one of sig arrives (its ssi_int when
 * queued), at most 10 s. */
static struct sigfd_siginfo await(int fd, int sig)
{
	for (int tries = 0; tries < 1000; tries++) {
		struct sigfd_siginfo r;

		CHECK(poll_events(fd, POLLIN, 10000) & POLLIN);
		CHECK(read(fd, &r, sizeof r) == (ssize_t)sizeof r);
		if ((int)r.ssi_signo == sig)
			return r;
		fprintf(stderr, "%s mode, %s: unexpected record of signal %u\n", mode_name, scenario,
			r.ssi_signo);
		failures++;
	}
	CHECK(!"no record");
	abort();
}

static void take_pending(int sig)
{
	sigset_t s = set_of(sig);
	struct timespec now = { 0, 0 };

	while (sigtimedwait(&s, NULL, &now) == sig)
		;
}

static void queue_self(void)
{
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(sigqueue(getpid(), SIGRTMIN, int_val(7)) == 0);
}

/* The records queue_self() made, from fd: none lost, the value intact. */
static void expect_queued(int fd)
{
	CHECK(await(fd, SIGUSR1).ssi_signo == SIGUSR1);
	EXPECT(await(fd, SIGRTMIN).ssi_int == 7, "the queued value changed");
}

/* Run op with the Nth call of f failing, for every N op reaches (counted in
 * a run with nothing failing first), calling check after each. */
static void each_fault(void (*attempt)(bool inject))
{
	for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++) {
		unsigned reached;

		if (!(faults[i].where & where_now))
			continue;
		memset(&inj, 0, sizeof inj);
		inj.fn = faults[i].fn;
		attempt(false);
		reached = inj.calls[inj.fn];
		for (unsigned n = 1; n <= reached; n++) {
			memset(&inj, 0, sizeof inj);
			inj.fn = faults[i].fn;
			inj.err = faults[i].err;
			inj.fail_at = n;
			attempt(true);
			injected += inj.fired_err != 0;
			fired_by[i] += inj.fired_err != 0;
		}
	}
}

static unsigned long share_flag;
static sigset_t usr1_rt; /* SIGUSR1 and SIGRTMIN */

/* sigfd() when the process has no share fd yet (share mode starts the
 * thread): the signals pending in the kernel stay there. */
static void first_open(bool inject)
{
	struct snapshot before;
	int fd, err;

	queue_self();
	snap(&before);
	atomic_store(&in_operation, true);
	injecting = true;
	fd = sigfd(&usr1_rt, share_flag | SIGFD_NONBLOCK);
	err = errno;
	injecting = false;
	atomic_store(&in_operation, false);
	if (fd < 0) {
		EXPECT(inject && inj.fired_err, "sigfd failed with nothing injected: %s",
		       strerror(err));
		EXPECT(err == inj.fired_err, "errno %s, not the injected one", strerror(err));
		EXPECT(open_errno_listed(err, share_flag), "errno %s is not in sigfd(3) ERRORS",
		       strerror(err));
		EXPECT(settles(&before), "something was left behind");
		EXPECT(pending_has(SIGUSR1) && pending_has(SIGRTMIN), "a pending signal was taken");
		fd = sigfd(&usr1_rt, share_flag | SIGFD_NONBLOCK);
		CHECK(fd >= 0);
	}
	expect_queued(fd);
	CHECK(close(fd) == 0);
	if (share_flag)
		library_idle();
}

/* A later share fd, while another holds records already forwarded and a
 * signal of the new mask is pending in the kernel. */
static int keeper;

static void later_open(bool inject)
{
	struct snapshot before;
	sigset_t usr2 = set_of(SIGUSR2);
	int fd, err;

	queue_self();
	settle(keeper, &usr1_rt);
	CHECK(kill(getpid(), SIGUSR2) == 0);
	snap(&before);
	atomic_store(&in_operation, true);
	injecting = true;
	fd = sigfd(&usr2, share_flag | SIGFD_NONBLOCK);
	err = errno;
	injecting = false;
	atomic_store(&in_operation, false);
	if (fd < 0) {
		EXPECT(inject && inj.fired_err, "sigfd failed with nothing injected: %s",
		       strerror(err));
		EXPECT(err == inj.fired_err, "errno %s, not the injected one", strerror(err));
		EXPECT(open_errno_listed(err, share_flag), "errno %s is not in sigfd(3) ERRORS",
		       strerror(err));
		EXPECT(settles(&before), "something was left behind");
		sync_thread();
		EXPECT(pending_has(SIGUSR2), "the pending SIGUSR2 was taken");
		fd = sigfd(&usr2, share_flag | SIGFD_NONBLOCK);
		CHECK(fd >= 0);
	}
	expect_queued(keeper);
	CHECK(await(fd, SIGUSR2).ssi_signo == SIGUSR2);
	CHECK(close(fd) == 0);
}

/* sigfd_setmask() adding SIGUSR2: on failure the mask is as it was, so a
 * SIGUSR2 pending stays pending, and the fd still reports what it did. */
static void change_mask(bool inject)
{
	struct snapshot before;
	sigset_t wider = usr1_rt;
	int rc, err;

	sigaddset(&wider, SIGUSR2);
	CHECK(kill(getpid(), SIGUSR2) == 0);
	snap(&before);
	atomic_store(&in_operation, true);
	injecting = true;
	rc = sigfd_setmask(keeper, &wider);
	err = errno;
	injecting = false;
	atomic_store(&in_operation, false);
	if (rc < 0) {
		EXPECT(inject && inj.fired_err, "sigfd_setmask failed with nothing injected: %s",
		       strerror(err));
		EXPECT(err == inj.fired_err, "errno %s, not the injected one", strerror(err));
		EXPECT(setmask_errno_listed(err), "errno %s is not in sigfd(3) ERRORS",
		       strerror(err));
		EXPECT(settles(&before), "something was left behind");
		queue_self();
		expect_queued(keeper);
		sync_thread();
		EXPECT(pending_has(SIGUSR2), "a failed sigfd_setmask changed the mask");
		take_pending(SIGUSR2);
	} else {
		CHECK(await(keeper, SIGUSR2).ssi_signo == SIGUSR2);
		CHECK(sigfd_setmask(keeper, &usr1_rt) == 0);
	}
}

static void run_mode(unsigned long flag)
{
	share_flag = flag;
	mode_name = flag ? "share" : "local";
	scenario = "the first sigfd()";
	where_now = IN_OPEN;
	each_fault(first_open);
	keeper = sigfd(&usr1_rt, flag | SIGFD_NONBLOCK);
	CHECK(keeper >= 0);
	if (flag) {
		scenario = "a later sigfd()";
		each_fault(later_open);
	}
	scenario = "sigfd_setmask()";
	where_now = IN_SETMASK;
	each_fault(change_mask);
	CHECK(close(keeper) == 0);
	if (flag)
		library_idle();
}

int main(void)
{
	sigset_t all;

	sigemptyset(&usr1_rt);
	sigaddset(&usr1_rt, SIGUSR1);
	sigaddset(&usr1_rt, SIGRTMIN);
	all = usr1_rt;
	sigaddset(&all, SIGUSR2);
	block_only(&all);

	run_mode(0);
	run_mode(SIGFD_SHARE);
	/* Every share fd is closed: the library frees its records on its
	 * next call (sync_thread() is one). */
	sync_thread();
	WAIT_UNTIL(live_allocations() == 0);
	CHECK(none_pending(&all));
	for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++)
		if (fired_by[i] == 0) {
			fprintf(stderr, "%s failing with %s never fired\n", fn_name[faults[i].fn],
				strerror(faults[i].err));
			failures++;
		}
	printf("fault_inject: %d injected failures, %d wrong\n", injected, failures);
	CHECK(injected > 0);
	return failures ? 1 : 0;
}
