// SPDX-License-Identifier: GPL-2.0
/*
 * signalfd descriptors bound to their creator (SFD_CREATOR): whoever
 * reads one gets the signals of the thread that created it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/aio_abi.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/io_uring.h>
#include <linux/seccomp.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"

#ifndef SFD_CREATOR
#define SFD_CREATOR 0x00000001
#endif

#ifndef SYS_SECCOMP
#define SYS_SECCOMP 1
#endif

#define REC sizeof(struct signalfd_siginfo)

/* The seccomp_data.arch of this program's system calls. */
#if defined(__x86_64__)
#define SFD_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__i386__)
#define SFD_AUDIT_ARCH AUDIT_ARCH_I386
#elif defined(__aarch64__) && !defined(__AARCH64EB__)
#define SFD_AUDIT_ARCH AUDIT_ARCH_AARCH64
#elif defined(__arm__) && !defined(__ARMEB__)
#define SFD_AUDIT_ARCH AUDIT_ARCH_ARM
#elif defined(__riscv) && __riscv_xlen == 64
#define SFD_AUDIT_ARCH AUDIT_ARCH_RISCV64
#elif defined(__s390x__)
#define SFD_AUDIT_ARCH AUDIT_ARCH_S390X
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SFD_AUDIT_ARCH AUDIT_ARCH_PPC64LE
#elif defined(__powerpc64__)
#define SFD_AUDIT_ARCH AUDIT_ARCH_PPC64
#elif defined(__loongarch64) && defined(AUDIT_ARCH_LOONGARCH64)
#define SFD_AUDIT_ARCH AUDIT_ARCH_LOONGARCH64
#else
#define SFD_AUDIT_ARCH 0	/* not known here: the seccomp tests skip */
#endif

static int creator_fd(int sig1, int sig2, int flags)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig1);
	if (sig2)
		sigaddset(&set, sig2);
	sigprocmask(SIG_BLOCK, &set, NULL);
	return signalfd(-1, &set, SFD_CREATOR | flags);
}

/* The next signal of @set pending here, waiting at most five seconds, or -1. */
static int wait_signal(const sigset_t *set)
{
	return sigtimedwait(set, NULL, &(struct timespec){ .tv_sec = 5 });
}

/* Read one record, waiting at most five seconds: its signal, or -1. */
static int read_one(int fd, struct signalfd_siginfo *si)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	if (poll(&pfd, 1, 5000) != 1)
		return -1;
	if (read(fd, si, REC) != REC)
		return -1;
	return si->ssi_signo;
}

/*
 * The next byte of @fd, waiting at most five seconds, or -1: a notice from a
 * child or thread that may have failed before sending it.
 */
static int read_byte(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	unsigned char c;

	if (poll(&pfd, 1, 5000) != 1 || read(fd, &c, 1) != 1)
		return -1;
	return c;
}

/* Run @fn in a child and return its exit status (0: success). */
static int in_child(int (*fn)(int), int fd)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn(fd));
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * Unblock every signal, discarding first what a test left pending (a timer's
 * last expiry, a signal a skipped test sent): its default action would end
 * the test process.
 */
static void unblock_all(void)
{
	sigset_t set;

	sigfillset(&set);
	while (sigtimedwait(&set, NULL, &(struct timespec){ 0 }) > 0)
		;
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

/*
 * Pass @fd over the unix socket @sock. A negative @fd sends a byte alone,
 * so that the receiver's recv_fd() fails instead of waiting, and -1.
 */
static int send_fd(int sock, int fd)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	struct iovec iov = { .iov_base = "x", .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = u.buf, .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);

	if (fd < 0) {
		msg.msg_control = NULL;
		msg.msg_controllen = 0;
		sendmsg(sock, &msg, 0);
		return -1;
	}
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

/* A descriptor from the unix socket @sock, or -1. */
static int recv_fd(int sock)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	char c;
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = u.buf, .msg_controllen = sizeof(u.buf) };
	struct pollfd pfd = { .fd = sock, .events = POLLIN };
	int fd;

	/* At most five seconds: a child that failed may send nothing. */
	if (poll(&pfd, 1, 5000) != 1 || recvmsg(sock, &msg, 0) != 1 || !CMSG_FIRSTHDR(&msg))
		return -1;
	memcpy(&fd, CMSG_DATA(CMSG_FIRSTHDR(&msg)), sizeof(int));
	return fd;
}

/* Records a descriptor holds now: FIONREAD in records, or -1. */
static int records(int fd)
{
	int bytes;

	return ioctl(fd, FIONREAD, &bytes) ? -1 : bytes / (int)REC;
}

/*
 * A child that queues @sig with value 100 to @pid until killed, by the
 * test or with it.
 */
static pid_t flooder(pid_t pid, int sig)
{
	pid_t f = fork();

	if (f == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;)
			sigqueue(pid, sig, (union sigval){ .sival_int = 100 });
	}
	return f;
}

static void stop_child(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/*
 * Re-executed as the new program by de_thread_leaves_shared_queue
 * (SFD_PENDING_PROBE=1: exit 0 if SIGUSR1 is pending for it) and by
 * creator_thread_exec_leaves_pending (=2: exit 0 if both SIGUSR1 and
 * SIGUSR2 are).
 */
__attribute__((constructor)) static void pending_probe(void)
{
	const char *want = getenv("SFD_PENDING_PROBE");
	sigset_t set;

	if (!want)
		return;
	sigpending(&set);
	if (*want == '1')
		_exit(sigismember(&set, SIGUSR1) ? 0 : 1);
	_exit(sigismember(&set, SIGUSR1) && sigismember(&set, SIGUSR2) ? 0 : 1);
}

/*
 * Re-executed as the new program by exec_leaves_pending_signals
 * (SFD_EXEC_PROBE=<socket>): say on the socket whether SIGUSR1 is pending
 * for it ('P') or not ('N'), queue itself another, and live on until the
 * test closes its end.
 */
__attribute__((constructor)) static void exec_probe(void)
{
	const char *sock = getenv("SFD_EXEC_PROBE");
	sigset_t set;
	int fd;
	char c;

	if (!sock)
		return;
	fd = atoi(sock);
	sigpending(&set);
	c = sigismember(&set, SIGUSR1) ? 'P' : 'N';
	kill(getpid(), SIGUSR1);
	_exit(write(fd, &c, 1) == 1 && read(fd, &c, 1) == 0 ? 0 : 1);
}

/*
 * Re-executed as the new program by exec_keeps_itimer_real
 * (SFD_ALARM_PROBE=1): exit with the number of SIGALRMs its inherited
 * ITIMER_REAL (20 ms) delivers in half a second, at most 100.
 */
__attribute__((constructor)) static void alarm_probe(void)
{
	struct timespec now, end, tick = { .tv_nsec = 50000000 };
	sigset_t set;
	int n = 0;

	if (!getenv("SFD_ALARM_PROBE"))
		return;
	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_nsec += 500000000;
	if (end.tv_nsec >= 1000000000) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000;
	}
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > end.tv_sec ||
		    (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec) || n >= 100)
			break;
		if (sigtimedwait(&set, NULL, &tick) == SIGALRM)
			n++;
	}
	_exit(n);
}

static int probe_creator(int unused)
{
	sigset_t set;

	sigemptyset(&set);
	return signalfd(-1, &set, SFD_CREATOR) < 0 && errno == EINVAL ? 1 : 0;
}

/*
 * The fixture's probe, for the tests outside it: whether this kernel has
 * SFD_CREATOR, asked in a child so that the test starts untouched by it.
 */
static bool creator_supported(void)
{
	return in_child(probe_creator, -1) != 1;
}

FIXTURE(creator) {
	int fd;
};

FIXTURE_SETUP(creator)
{
	self->fd = creator_fd(SIGUSR1, SIGRTMIN, SFD_NONBLOCK | SFD_CLOEXEC);
	if (self->fd < 0 && errno == EINVAL)
		SKIP(return, "SFD_CREATOR not supported");
	ASSERT_GE(self->fd, 0);
}

FIXTURE_TEARDOWN(creator)
{
	close(self->fd);
	unblock_all();
}

/*
 * For a creator in another process: it sends its descriptor on sv[1] and
 * waits on go[0] for a byte (or end of file) before it goes on.
 */
FIXTURE(remote) {
	int sv[2], go[2];
};

FIXTURE_SETUP(remote)
{
	if (!creator_supported())
		SKIP(return, "SFD_CREATOR not supported");
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, self->sv));
	ASSERT_EQ(0, pipe(self->go));
}

FIXTURE_TEARDOWN(remote)
{
	close(self->sv[0]);
	close(self->sv[1]);
	close(self->go[0]);
	close(self->go[1]);
}

TEST(flag_validation)
{
	sigset_t set;
	int fd;

	if (!creator_supported())
		SKIP(return, "SFD_CREATOR not supported");
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	EXPECT_EQ(-1, signalfd(-1, &set, SFD_CREATOR << 1));
	EXPECT_EQ(EINVAL, errno);
	fd = signalfd(-1, &set, 0);
	ASSERT_GE(fd, 0);
	/* An update cannot turn a plain signalfd into a creator-bound one. */
	EXPECT_EQ(-1, signalfd(fd, &set, SFD_CREATOR));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

TEST_F(creator, creator_reads_its_own)
{
	struct signalfd_siginfo si;

	EXPECT_EQ(-1, read(self->fd, &si, REC));
	EXPECT_EQ(EAGAIN, errno);
	ASSERT_EQ(0, kill(getpid(), SIGUSR1));
	ASSERT_EQ(SIGUSR1, read_one(self->fd, &si));
	EXPECT_EQ(getpid(), si.ssi_pid);
	EXPECT_EQ(getuid(), si.ssi_uid);
	EXPECT_EQ(SI_USER, si.ssi_code);
}

TEST_F(creator, short_read_takes_nothing)
{
	struct signalfd_siginfo si;

	ASSERT_EQ(0, kill(getpid(), SIGUSR1));
	EXPECT_EQ(-1, read(self->fd, &si, REC - 1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(SIGUSR1, read_one(self->fd, &si));
}

static int child_reads_parent(int fd)
{
	struct signalfd_siginfo si;

	/* The child's own signal is not the descriptor's business. */
	if (kill(getpid(), SIGUSR1))
		return 1;
	if (read_one(fd, &si) != SIGUSR1 || si.ssi_pid != getppid())
		return 2;
	if (read(fd, &si, REC) != -1 || errno != EAGAIN)
		return 3;
	return 0;
}

TEST_F(creator, child_reads_parent)
{
	struct signalfd_siginfo si;

	ASSERT_EQ(0, kill(getpid(), SIGUSR1));
	EXPECT_EQ(0, in_child(child_reads_parent, self->fd));
	/* Taken by the child: nothing left here. */
	EXPECT_EQ(-1, read(self->fd, &si, REC));
	EXPECT_EQ(EAGAIN, errno);
}

static int child_reads_queue(int fd)
{
	struct signalfd_siginfo si[4];
	int i;

	if (read(fd, si, sizeof(si)) != 3 * REC)
		return 1;
	for (i = 0; i < 3; i++)
		if (si[i].ssi_signo != SIGRTMIN || si[i].ssi_int != i ||
		    si[i].ssi_code != SI_QUEUE)
			return 2 + i;
	return 0;
}

TEST_F(creator, several_records_in_order)
{
	int i;

	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = i }));
	EXPECT_EQ(0, in_child(child_reads_queue, self->fd));
}

/* Wait until process @pid sleeps (state S), looking every 10 ms, 5 s at most. */
static bool asleep(pid_t pid)
{
	char path[64], buf[512], *state;
	ssize_t n;
	int i, fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	for (i = 0; i < 500; i++) {
		fd = open(path, O_RDONLY);
		if (fd < 0)
			return false;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			return false;
		buf[n] = '\0';
		state = strrchr(buf, ')');
		if (state && state[1] == ' ' && state[2] == 'S')
			return true;
		poll(NULL, 0, 10);
	}
	return false;
}

/*
 * A child that says so on @up, then blocks in read() of @fd: exit 0 when
 * the read returns a record of @sig, or fails with EINTR if @sig is 0.
 */
static pid_t sleeping_reader(int fd, int up[2], int sig)
{
	struct signalfd_siginfo si;
	pid_t child = fork();
	ssize_t n;

	if (child)
		return child;
	close(up[0]);
	if (write(up[1], "r", 1) != 1)
		_exit(1);
	n = read(fd, &si, REC);
	if (!sig)
		_exit(n == -1 && errno == EINTR ? 0 : 2);
	_exit(n == REC && (int)si.ssi_signo == sig && si.ssi_pid == (uint32_t)getppid() ? 0 : 3);
}

/* The child's status once it exits, waiting at most 5 s (then killed). */
static int reader_status(pid_t child, int up[2])
{
	struct pollfd pfd = { .fd = up[0], .events = POLLIN };
	int status;

	close(up[1]);
	/* End of file: the child has exited. */
	if (poll(&pfd, 1, 5000) != 1)
		kill(child, SIGKILL);
	close(up[0]);
	if (waitpid(child, &status, 0) != child)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The events of @pfd within @ms, by poll(), or by epoll_wait() on @ep. */
static unsigned int events(int ep, struct pollfd *pfd, int ms)
{
	struct epoll_event ev;

	if (ep >= 0)
		return epoll_wait(ep, &ev, 1, ms) == 1 ? ev.events : 0;
	return poll(pfd, 1, ms) == 1 ? pfd->revents : 0;
}

/*
 * A child that finds @fd not ready, says so on @up, then sleeps in poll(),
 * or in epoll_wait() if @use_epoll: exit 0 when it is woken, within five
 * seconds, by a SIGUSR1 its parent queued to itself.
 */
static pid_t sleeping_poller(int fd, int up[2], bool use_epoll)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	struct signalfd_siginfo si;
	pid_t child = fork();
	int ep = -1;

	if (child)
		return child;
	close(up[0]);
	if (use_epoll) {
		ep = epoll_create1(0);
		if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev))
			_exit(5);
	}
	if (events(ep, &pfd, 0))
		_exit(1);
	if (write(up[1], "p", 1) != 1)
		_exit(2);
	if (events(ep, &pfd, 5000) != POLLIN)
		_exit(3);
	_exit(read_one(fd, &si) == SIGUSR1 && si.ssi_pid == (uint32_t)getppid() ? 0 : 4);
}

/*
 * Queue SIGUSR1 here once a sleeping_poller() of @fd is seen asleep: the
 * poller's exit status (0: woken), or -1 if it was never seen asleep.
 */
static int poller_woken(int fd, bool use_epoll)
{
	pid_t child;
	int up[2], status;
	bool slept;

	if (pipe(up))
		return -1;
	child = sleeping_poller(fd, up, use_epoll);
	if (child < 0) {
		close(up[0]);
		close(up[1]);
		return -1;
	}
	slept = read_byte(up[0]) != -1 && asleep(child);
	kill(getpid(), SIGUSR1);
	status = reader_status(child, up);
	return slept ? status : -1;
}

/* A poller asleep in another process is woken by a signal sent later. */
TEST_F(creator, poll_in_another_process)
{
	EXPECT_EQ(0, poller_woken(self->fd, false));
}

/* A reader asleep in another process is woken by a signal sent later. */
TEST(blocking_read_woken_in_another_process)
{
	int up[2], fd = creator_fd(SIGUSR2, 0, 0);
	pid_t child;

	if (!creator_supported())
		SKIP(return, "SFD_CREATOR not supported");
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, pipe(up));
	child = sleeping_reader(fd, up, SIGUSR2);
	ASSERT_GE(child, 0);
	ASSERT_NE(-1, read_byte(up[0]));
	EXPECT_TRUE(asleep(child));
	ASSERT_EQ(0, kill(getpid(), SIGUSR2));
	EXPECT_EQ(0, reader_status(child, up));
	close(fd);
	unblock_all();
}

static void no_op(int sig)
{
}

/*
 * A signal of the reader's own (not of the descriptor's creator) that has a
 * handler ends its wait: read() fails with EINTR, and takes nothing.
 */
TEST(blocking_read_interrupted_in_another_process)
{
	struct sigaction sa = { .sa_handler = no_op };
	struct signalfd_siginfo si;
	int up[2], fd = creator_fd(SIGUSR2, 0, 0);
	pid_t child;

	if (!creator_supported())
		SKIP(return, "SFD_CREATOR not supported");
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
	ASSERT_EQ(0, pipe(up));
	child = sleeping_reader(fd, up, 0);
	ASSERT_GE(child, 0);
	ASSERT_NE(-1, read_byte(up[0]));
	EXPECT_TRUE(asleep(child));
	ASSERT_EQ(0, kill(child, SIGUSR1));
	EXPECT_EQ(0, reader_status(child, up));
	ASSERT_EQ(0, kill(getpid(), SIGUSR2));
	/* It took nothing: the creator's next signal is the first record. */
	EXPECT_EQ(SIGUSR2, read_one(fd, &si));
	close(fd);
	unblock_all();
}

static int child_signals_parent(int fd)
{
	struct signalfd_siginfo si;

	if (kill(getppid(), SIGRTMIN))
		return 1;
	return read_one(fd, &si) == SIGRTMIN && si.ssi_pid == getpid() ? 0 : 2;
}

TEST_F(creator, setmask_in_creator_process)
{
	struct signalfd_siginfo si;
	sigset_t set, usr1;

	EXPECT_EQ(0, in_child(child_signals_parent, self->fd));
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, NULL);
	EXPECT_EQ(self->fd, signalfd(self->fd, &set, 0));
	/* SFD_CREATOR in an update: only a creator-bound one is updated. */
	EXPECT_EQ(self->fd, signalfd(self->fd, &set, SFD_CREATOR));
	EXPECT_EQ(0, kill(getpid(), SIGUSR1));
	EXPECT_EQ(0, kill(getpid(), SIGUSR2));
	EXPECT_EQ(SIGUSR2, read_one(self->fd, &si));
	EXPECT_EQ(-1, read(self->fd, &si, REC));
	EXPECT_EQ(EAGAIN, errno);
	/* SIGUSR1 is out of the mask: it stays pending. */
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	EXPECT_EQ(SIGUSR1, wait_signal(&usr1));
}

static int child_setmask(int fd)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	return signalfd(fd, &set, 0) == -1 && errno == EPERM ? 0 : 1;
}

TEST_F(creator, setmask_elsewhere_eperm)
{
	EXPECT_EQ(0, in_child(child_setmask, self->fd));
}

struct setmask_arg {
	int fd;
	pid_t creator;	/* the thread blocked in read() */
	int done[2];	/* creator to thread: the read returned */
};

/*
 * Once the creator sleeps in read() of its descriptor, add SIGUSR2 to the
 * mask. Should the read not return within five seconds, end it with
 * SIGUSR1, which the test does not expect.
 */
static void *setmask_later(void *p)
{
	struct setmask_arg *arg = p;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	if (!asleep(arg->creator) || signalfd(arg->fd, &set, 0) != arg->fd ||
	    read_byte(arg->done[0]) == -1)
		kill(getpid(), SIGUSR1);
	return NULL;
}

/*
 * A mask change wakes the reads that sleep on the descriptor, in another
 * process and in the creator itself: a signal pending already, which the
 * new mask takes in, is read at once.
 */
TEST(setmask_wakes_blocked_reads)
{
	struct signalfd_siginfo si;
	struct setmask_arg arg;
	sigset_t usr1, both;
	pthread_t thread;
	int up[2];
	pid_t child;

	if (!creator_supported())
		SKIP(return, "SFD_CREATOR not supported");
	arg.fd = creator_fd(SIGUSR1, 0, 0);
	ASSERT_GE(arg.fd, 0);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	both = usr1;
	sigaddset(&both, SIGUSR2);
	ASSERT_EQ(0, sigprocmask(SIG_BLOCK, &both, NULL));

	ASSERT_EQ(0, kill(getpid(), SIGUSR2));
	ASSERT_EQ(0, pipe(up));
	child = sleeping_reader(arg.fd, up, SIGUSR2);
	ASSERT_GE(child, 0);
	ASSERT_NE(-1, read_byte(up[0]));
	EXPECT_TRUE(asleep(child));
	EXPECT_EQ(arg.fd, signalfd(arg.fd, &both, 0));
	EXPECT_EQ(0, reader_status(child, up));

	EXPECT_EQ(arg.fd, signalfd(arg.fd, &usr1, 0));
	ASSERT_EQ(0, kill(getpid(), SIGUSR2));
	arg.creator = gettid();
	ASSERT_EQ(0, pipe(arg.done));
	ASSERT_EQ(0, pthread_create(&thread, NULL, setmask_later, &arg));
	EXPECT_EQ(REC, read(arg.fd, &si, REC));
	EXPECT_EQ(SIGUSR2, si.ssi_signo);
	EXPECT_EQ(1, write(arg.done[1], "d", 1));
	pthread_join(thread, NULL);
	close(arg.done[0]);
	close(arg.done[1]);
	close(arg.fd);
	unblock_all();
}

struct thread_arg {
	int fd;
	int up[2];	/* thread to test: the descriptor is there */
	int down[2];	/* test to thread: exit now */
};

static void *creator_thread(void *p)
{
	struct thread_arg *arg = p;
	char c;

	arg->fd = creator_fd(SIGUSR2, 0, SFD_NONBLOCK);
	syscall(SYS_tgkill, getpid(), gettid(), SIGUSR2);
	if (write(arg->up[1], "x", 1) != 1)
		return NULL;
	/* Exit with the signal still pending for this thread. */
	if (read(arg->down[0], &c, 1) != 1)
		return NULL;
	return NULL;
}

TEST(exit_hands_over_then_eof)
{
	struct signalfd_siginfo si;
	struct thread_arg arg;
	struct pollfd pfd;
	pthread_t t;

	if (!creator_supported())
		SKIP(return, "SFD_CREATOR not supported");
	ASSERT_EQ(0, pipe(arg.up));
	ASSERT_EQ(0, pipe(arg.down));
	ASSERT_EQ(0, pthread_create(&t, NULL, creator_thread, &arg));
	ASSERT_NE(-1, read_byte(arg.up[0]));
	ASSERT_GE(arg.fd, 0);
	/* The creator lives: its thread-directed signal is readable here too. */
	pfd = (struct pollfd){ .fd = arg.fd, .events = POLLIN };
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	ASSERT_EQ(1, write(arg.down[1], "x", 1));
	ASSERT_EQ(0, pthread_join(t, NULL));

	/* Gone: the pending signal first, then end of file. */
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ(POLLIN, pfd.revents);
	EXPECT_EQ(REC, read(arg.fd, &si, REC));
	EXPECT_EQ(SIGUSR2, si.ssi_signo);
	EXPECT_EQ(SI_TKILL, si.ssi_code);
	EXPECT_EQ(0, read(arg.fd, &si, REC));
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ(POLLIN | POLLHUP, pfd.revents);
	/* After the end, the mask can no longer change. */
	EXPECT_EQ(-1, signalfd(arg.fd, &(sigset_t){ 0 }, 0));
	EXPECT_EQ(EPERM, errno);
	close(arg.fd);
	unblock_all();
}

/*
 * The creator's exec ends its descriptors and takes nothing: POSIX keeps
 * the pending signals for the new program, and nothing the new program
 * gets reaches the descriptor.
 */
TEST_F(remote, exec_leaves_pending_signals)
{
	struct signalfd_siginfo si;
	int *sv = self->sv;
	int ready[2], fd, status;
	pid_t pid;

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, ready));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		char fdstr[16];

		/* The test's end alone: closing it ends the new program. */
		close(ready[0]);
		fd = creator_fd(SIGUSR1, 0, SFD_NONBLOCK | SFD_CLOEXEC);
		kill(getpid(), SIGUSR1);
		if (send_fd(sv[1], fd))
			_exit(1);
		/* The new program (exec_probe()) reports, then signals itself. */
		snprintf(fdstr, sizeof(fdstr), "%d", ready[1]);
		setenv("SFD_EXEC_PROBE", fdstr, 1);
		execl("/proc/self/exe", "probe", (char *)NULL);
		_exit(2);
	}
	close(ready[1]);
	fd = recv_fd(sv[0]);
	ASSERT_GE(fd, 0);
	/* The old program's signal is pending for the new one. */
	EXPECT_EQ('P', read_byte(ready[0]));
	/* The end, with nothing: neither that signal nor the new program's. */
	EXPECT_EQ(0, read(fd, &si, REC));
	/* The new program lived until now: the end came with the exec. */
	close(ready[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	close(fd);
	unblock_all();
}

static int child_reads_timer(int fd)
{
	struct signalfd_siginfo si;
	int i;

	/* Each record needs the timer rearmed by the previous read. */
	for (i = 0; i < 3; i++)
		if (read_one(fd, &si) != SIGRTMIN || si.ssi_code != SI_TIMER)
			return 1 + i;
	return 0;
}

TEST_F(creator, posix_timer_rearmed_by_reader)
{
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGRTMIN };
	struct itimerspec its = { .it_interval.tv_nsec = 20000000, .it_value.tv_nsec = 20000000 };
	timer_t timer;

	ASSERT_EQ(0, timer_create(CLOCK_MONOTONIC, &sev, &timer));
	ASSERT_EQ(0, timer_settime(timer, 0, &its, NULL));
	EXPECT_EQ(0, in_child(child_reads_timer, self->fd));
	timer_delete(timer);
}

static int child_reads_alarm(int fd)
{
	struct signalfd_siginfo si;
	int i;

	for (i = 0; i < 3; i++)
		if (read_one(fd, &si) != SIGALRM)
			return 1 + i;
	return 0;
}

TEST(itimer_restarted_by_reader)
{
	struct itimerval itv = { .it_interval.tv_usec = 20000, .it_value.tv_usec = 20000 };
	int fd = creator_fd(SIGALRM, 0, SFD_NONBLOCK);

	if (!creator_supported())
		SKIP(return, "SFD_CREATOR not supported");
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, setitimer(ITIMER_REAL, &itv, NULL));
	EXPECT_EQ(0, in_child(child_reads_alarm, fd));
	itv = (struct itimerval){ 0 };
	setitimer(ITIMER_REAL, &itv, NULL);
	close(fd);
	unblock_all();
}

/*
 * A periodic ITIMER_REAL survives exec. Its SIGALRM, pending at the
 * creator's exec, stays with the new program, whose dequeue restarts the
 * timer: the new program goes on getting SIGALRMs.
 */
TEST_F(remote, exec_keeps_itimer_real)
{
	struct signalfd_siginfo si;
	int *sv = self->sv;
	int fd, status, i;
	pid_t pid;

	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		struct itimerval itv = { .it_interval.tv_usec = 20000,
					 .it_value.tv_usec = 20000 };
		sigset_t set;

		fd = creator_fd(SIGALRM, 0, SFD_NONBLOCK | SFD_CLOEXEC);
		if (send_fd(sv[1], fd) || setitimer(ITIMER_REAL, &itv, NULL))
			_exit(101);
		/* Until its SIGALRM is pending, at most five seconds. */
		for (i = 0; i < 5000; i++) {
			sigpending(&set);
			if (sigismember(&set, SIGALRM))
				break;
			usleep(1000);
		}
		if (i == 5000)
			_exit(102);
		setenv("SFD_ALARM_PROBE", "1", 1);
		execl("/proc/self/exe", "probe", (char *)NULL);
		_exit(103);
	}
	fd = recv_fd(sv[0]);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	TH_LOG("SIGALRMs in the new program in 0.5 s: %d", WEXITSTATUS(status));
	/* 25 expected; a timer left dead gives 0. */
	EXPECT_LE(3, WEXITSTATUS(status));
	EXPECT_GT(101, WEXITSTATUS(status));
	EXPECT_EQ(0, read(fd, &si, REC));
	close(fd);
}

static int child_reads_stop(int fd)
{
	struct signalfd_siginfo si;

	return read_one(fd, &si) == SIGTSTP ? 0 : 1;
}

TEST(stop_signal_taken_by_reader)
{
	struct signalfd_siginfo si;
	int fd = creator_fd(SIGTSTP, 0, SFD_NONBLOCK);

	if (!creator_supported())
		SKIP(return, "SFD_CREATOR not supported");
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, kill(getpid(), SIGTSTP));
	EXPECT_EQ(0, in_child(child_reads_stop, fd));
	EXPECT_EQ(-1, read(fd, &si, REC));
	close(fd);
	unblock_all();
}

/* In a new pid namespace, the creator (outside it) is invisible: 0. */
static int child_in_pid_ns(int fd)
{
	struct signalfd_siginfo si;
	pid_t pid;
	int status;

	if (unshare(CLONE_NEWPID))
		return 77;
	pid = fork();
	if (pid == 0)
		_exit(read_one(fd, &si) == SIGUSR1 && si.ssi_pid == 0 ? 0 : 1);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 2;
	return WEXITSTATUS(status);
}

TEST_F(creator, pid_hidden_from_reader)
{
	int status;

	ASSERT_EQ(0, kill(getpid(), SIGUSR1));
	status = in_child(child_in_pid_ns, self->fd);
	if (status == 77)
		SKIP(return, "unshare(CLONE_NEWPID) refused: needs CAP_SYS_ADMIN, CONFIG_PID_NS");
	EXPECT_EQ(0, status);
}

/* The last pid of /proc/<pid>/status NSpid: the innermost namespace's. */
static int innermost_pid(pid_t pid)
{
	char path[64], line[256], *p;
	int nr = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "NSpid:", 6)) {
			p = strrchr(line, '\t');
			nr = p ? atoi(p + 1) : -1;
		}
	fclose(f);
	return nr;
}

/*
 * A child of the creator exits in a new pid namespace; the SIGCHLD record
 * names it by its pid in the creator's namespace. A reader inside the new
 * namespace reads it under the number it has there.
 */
TEST(pid_translated_for_reader)
{
	int fd, nr, go[2], verdict[2], status;
	struct signalfd_siginfo si;
	pid_t reader, child;
	siginfo_t info;
	char c;

	if (!creator_supported())
		SKIP(return, "SFD_CREATOR not supported");
	fd = creator_fd(SIGCHLD, 0, 0);
	ASSERT_GE(fd, 0);
	if (unshare(CLONE_NEWPID))
		SKIP(return, "unshare(CLONE_NEWPID): %s: needs CAP_SYS_ADMIN and CONFIG_PID_NS",
		     strerror(errno));
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(verdict));
	reader = fork();
	ASSERT_GE(reader, 0);
	if (reader == 0) {
		if (read(go[0], &nr, sizeof(nr)) != sizeof(nr))
			_exit(1);
		c = read_one(fd, &si) == SIGCHLD && si.ssi_code == CLD_EXITED &&
		    si.ssi_status == 7 && (int)si.ssi_pid == nr ? 'y' : 'n';
		if (write(verdict[1], &c, 1) != 1)
			_exit(2);
		_exit(0);
	}
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0)
		_exit(7);
	/* A zombie keeps its pid: the record can still be translated. */
	ASSERT_EQ(0, waitid(P_PID, child, &info, WEXITED | WNOWAIT));
	nr = innermost_pid(child);
	EXPECT_NE(child, nr);
	ASSERT_EQ(sizeof(nr), write(go[1], &nr, sizeof(nr)));
	EXPECT_EQ('y', read_byte(verdict[0]));
	/* The reader is its namespace's init: it can only finish once the
	 * child, in its namespace, has been reaped.
	 */
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_EQ(reader, waitpid(reader, &status, 0));
	EXPECT_EQ(0, status);
	close(fd);
	unblock_all();
}

static int child_in_user_ns(int fd)
{
	struct signalfd_siginfo si;

	unsigned int overflow_uid = 65534;
	FILE *f = fopen("/proc/sys/kernel/overflowuid", "r");

	if (f) {
		if (fscanf(f, "%u", &overflow_uid) != 1)
			overflow_uid = 65534;
		fclose(f);
	}
	if (unshare(CLONE_NEWUSER))
		return 77;
	/* No mapping: the sender's uid is the overflow uid here. */
	return read_one(fd, &si) == SIGUSR1 && si.ssi_uid == overflow_uid ? 0 : 1;
}

TEST_F(creator, uid_translated_for_reader)
{
	int status;

	ASSERT_EQ(0, kill(getpid(), SIGUSR1));
	status = in_child(child_in_user_ns, self->fd);
	if (status == 77)
		SKIP(return, "unshare(CLONE_NEWUSER) refused: needs CONFIG_USER_NS");
	EXPECT_EQ(0, status);
}

TEST_F(creator, kill_and_stop_dropped)
{
	unsigned long long mask = 0;
	char path[64], line[128];
	sigset_t set;
	FILE *f;

	sigfillset(&set);
	EXPECT_EQ(self->fd, signalfd(self->fd, &set, 0));
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", self->fd);
	f = fopen(path, "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f))
		sscanf(line, "sigmask: %llx", &mask);
	fclose(f);
	EXPECT_EQ(0, mask & (1ULL << (SIGKILL - 1)));
	EXPECT_EQ(0, mask & (1ULL << (SIGSTOP - 1)));
	EXPECT_NE(0, mask & (1ULL << (SIGUSR1 - 1)));
}

/* Whether @sig is pending here, looking every 10 ms, 5 s at most. */
static bool pending_soon(int sig)
{
	sigset_t set;
	int i;

	for (i = 0; i < 500; i++) {
		if (!sigpending(&set) && sigismember(&set, sig))
			return true;
		poll(NULL, 0, 10);
	}
	return false;
}

/*
 * The creator's end is one bounded step: a creator thread leaves at once
 * while a sender keeps its process's queue full, and takes none of the
 * process's signals, which the thread that lives on still has.
 */
TEST(thread_exit_under_flood)
{
	struct signalfd_siginfo si;
	struct thread_arg arg;
	sigset_t rt;
	pthread_t t;
	pid_t f;

	if (!creator_supported())
		SKIP(return, "SFD_CREATOR not supported");
	sigemptyset(&rt);
	sigaddset(&rt, SIGRTMIN);
	sigprocmask(SIG_BLOCK, &rt, NULL);
	ASSERT_EQ(0, pipe(arg.up));
	ASSERT_EQ(0, pipe(arg.down));
	ASSERT_EQ(0, pthread_create(&t, NULL, creator_thread, &arg));
	ASSERT_NE(-1, read_byte(arg.up[0]));
	ASSERT_GE(arg.fd, 0);
	ASSERT_EQ(arg.fd, signalfd(arg.fd, &rt, 0));
	f = flooder(getpid(), SIGRTMIN);
	ASSERT_GE(f, 0);
	/* The flood has begun once one of its signals is pending here. */
	ASSERT_TRUE(pending_soon(SIGRTMIN));
	ASSERT_EQ(1, write(arg.down[1], "x", 1));
	ASSERT_EQ(0, pthread_join(t, NULL));
	stop_child(f);
	/* Thread-directed: nothing of the process's flood is here... */
	EXPECT_EQ(0, read(arg.fd, &si, REC));
	/* ...and what was pending before the thread left still is. */
	EXPECT_EQ(SIGRTMIN, wait_signal(&rt));
	close(arg.fd);
	while (sigtimedwait(&rt, NULL, &(struct timespec){ 0 }) > 0)
		;
	unblock_all();
}

/*
 * A creator process leaves at once under a flood. What it had queued is
 * read first, in order, then whatever of the flood came before its end,
 * then end of file.
 */
TEST_F(remote, process_exit_under_flood)
{
	int *sv = self->sv, *go = self->go;
	int fd, i, status;
	struct signalfd_siginfo si;
	siginfo_t info;
	pid_t child, f;
	char c;

	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		close(go[1]);
		fd = creator_fd(SIGRTMIN, 0, 0);
		for (i = 0; i < 5; i++)
			sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = i });
		if (send_fd(sv[1], fd) || read(go[0], &c, 1) != 1)
			_exit(1);
		_exit(0);
	}
	fd = recv_fd(sv[0]);
	ASSERT_GE(fd, 0);
	f = flooder(child, SIGRTMIN);
	ASSERT_GE(f, 0);
	/* Wait (5 s at most) until the flood reaches the child. */
	for (i = 0; i < 500 && records(fd) <= 5; i++)
		poll(NULL, 0, 10);
	ASSERT_LT(5, records(fd));
	ASSERT_EQ(1, write(go[1], "x", 1));
	/* Left unreaped until the flooder stops: its pid cannot be reused. */
	ASSERT_EQ(0, waitid(P_PID, child, &info, WEXITED | WNOWAIT));
	stop_child(f);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, status);
	/* The creator is gone: a read that would wait fails (EAGAIN) instead. */
	ASSERT_EQ(0, fcntl(fd, F_SETFL, O_NONBLOCK));
	for (i = 0; i < 5; i++) {
		ASSERT_EQ(REC, read(fd, &si, REC));
		EXPECT_EQ(i, si.ssi_int);
	}
	while (read(fd, &si, REC) == REC)
		EXPECT_EQ(100, si.ssi_int);
	EXPECT_EQ(0, read(fd, &si, REC));
	close(fd);
}

/* Queue SIGRTMIN to itself until refused: how many it could. */
static int fill_queue(void)
{
	int n = 0;

	while (sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = n }) == 0)
		n++;
	return errno == EAGAIN ? n : -1;
}

static int child_queue_refused(int unused)
{
	sigset_t rt;

	sigemptyset(&rt);
	sigaddset(&rt, SIGRTMIN);
	sigprocmask(SIG_BLOCK, &rt, NULL);
	return fill_queue() == 0 ? 0 : 1;
}

/*
 * The records a creator leaves keep their RLIMIT_SIGPENDING charge until
 * they are read: a dead creator's descriptor cannot hold more than its
 * user could have queued.
 */
TEST_F(remote, records_keep_their_charge)
{
	struct rlimit rl = { 64, 64 };
	struct signalfd_siginfo si;
	int *sv = self->sv;
	int fd, n, status;
	pid_t child;

	ASSERT_EQ(0, setrlimit(RLIMIT_SIGPENDING, &rl));
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		fd = creator_fd(SIGRTMIN, 0, SFD_NONBLOCK);
		n = fill_queue();
		if (n <= 0 || send_fd(sv[1], fd) || write(sv[1], &n, sizeof(n)) != sizeof(n))
			_exit(1);
		_exit(0);
	}
	fd = recv_fd(sv[0]);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(sizeof(n), read(sv[0], &n, sizeof(n)));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(n, records(fd));
	/* Held by the descriptor, still charged: no room for another. */
	EXPECT_EQ(0, in_child(child_queue_refused, -1));
	while (read(fd, &si, REC) == REC)
		n--;
	EXPECT_EQ(0, n);
	/* Read: the charge is gone with them. */
	EXPECT_NE(0, in_child(child_queue_refused, -1));
	close(fd);
	unblock_all();
}

/* SigQ's first figure in /proc/self/status: signals queued for our user. */
static int user_sigq(void)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");
	int n = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "SigQ: %d/", &n) == 1)
			break;
	fclose(f);
	return n;
}

#define SFD_LEGACY_LIMIT 16
#define SFD_LEGACY_CREATORS 4

/*
 * A creator that queues itself every legacy signal but SIGKILL, SIGSTOP and
 * SIGCONT (which a later stop signal would discard): 28, which kill()
 * queues past RLIMIT_SIGPENDING. It passes a descriptor of them to the test
 * and exits.
 */
static int legacy_creator(int sock)
{
	sigset_t set;
	int fd, sig;

	sigemptyset(&set);
	for (sig = 1; sig < SIGRTMIN; sig++)
		if (sig != SIGKILL && sig != SIGSTOP && sig != SIGCONT)
			sigaddset(&set, sig);
	sigprocmask(SIG_BLOCK, &set, NULL);
	fd = signalfd(-1, &set, SFD_CREATOR | SFD_NONBLOCK);
	if (fd < 0 || send_fd(sock, fd))
		return 1;
	for (sig = 1; sig < SIGRTMIN; sig++)
		if (sigismember(&set, sig) && kill(getpid(), sig))
			return 2;
	return 0;
}

static int legacy_records_bounded(int unused)
{
	struct rlimit rl = { SFD_LEGACY_LIMIT, SFD_LEGACY_LIMIT };
	struct signalfd_siginfo si;
	int sv[2], fd[SFD_LEGACY_CREATORS], i, n, held;

	if (setrlimit(RLIMIT_SIGPENDING, &rl) ||
	    socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return 10;
	for (i = 0; i < SFD_LEGACY_CREATORS; i++) {
		if (in_child(legacy_creator, sv[1]))
			return 11;
		fd[i] = recv_fd(sv[0]);
		if (fd[i] < 0)
			return 12;
	}
	held = user_sigq();
	printf("# records charged with %d dead creators holding 28 legacy signals each",
	       SFD_LEGACY_CREATORS);
	printf(", limit %d: %d\n", SFD_LEGACY_LIMIT, held);
	if (held < 0 || held > SFD_LEGACY_LIMIT)
		return 13;
	/* None of the signals is lost: those past the limit have no record. */
	for (i = 0; i < SFD_LEGACY_CREATORS; i++) {
		for (n = 0; read(fd[i], &si, REC) == REC; n++)
			;
		if (n != 28)
			return 14;
		close(fd[i]);
	}
	return 0;
}

/*
 * The kernel queues legacy signals past RLIMIT_SIGPENDING. What a creator
 * leaves its descriptors stays within the limit: the records past it are
 * dropped, the signals kept, as with no queue space.
 */
TEST(records_past_limit_bounded)
{
	if (!creator_supported())
		SKIP(return, "SFD_CREATOR not supported");
	EXPECT_EQ(0, in_child(legacy_records_bounded, -1));
}

/*
 * A creator at its RLIMIT_SIGPENDING with a posix-timer signal pending:
 * the signal reaches the descriptor at the creator's end.
 */
static int timer_creator_at_limit(int sock)
{
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGRTMIN + 1,
				.sigev_value.sival_int = 42 };
	struct itimerspec its = { .it_value.tv_nsec = 1000000 };
	struct rlimit rl = { 8, 8 };
	sigset_t set;
	timer_t timer;
	int fd, i;

	if (setrlimit(RLIMIT_SIGPENDING, &rl))
		return 1;
	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	sigprocmask(SIG_BLOCK, &set, NULL);
	fd = creator_fd(SIGRTMIN + 1, 0, SFD_NONBLOCK);
	if (fd < 0 || send_fd(sock, fd) || timer_create(CLOCK_MONOTONIC, &sev, &timer) ||
	    fill_queue() <= 0 || timer_settime(timer, 0, &its, NULL))
		return 2;
	for (i = 0; i < 5000; i++) {
		sigpending(&set);
		if (sigismember(&set, SIGRTMIN + 1))
			return 0;
		usleep(1000);
	}
	return 3;
}

TEST_F(remote, timer_signal_kept_at_limit)
{
	struct signalfd_siginfo si;
	int *sv = self->sv;
	int fd;

	ASSERT_EQ(0, in_child(timer_creator_at_limit, sv[1]));
	fd = recv_fd(sv[0]);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(REC, read(fd, &si, REC));
	EXPECT_EQ(SIGRTMIN + 1, si.ssi_signo);
	EXPECT_EQ(SI_TIMER, si.ssi_code);
	EXPECT_EQ(42, si.ssi_int);
	EXPECT_EQ(0, read(fd, &si, REC));
	close(fd);
}

/*
 * A queued posix-timer signal whose timer was deleted: a creator-bound
 * descriptor counts and returns what a plain signalfd in the creator
 * would (7.x drops it; 6.12 delivers it), before the end and after.
 */
static int timer_fired_then_deleted(void)
{
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGRTMIN };
	struct itimerspec its = { .it_value.tv_nsec = 1000000 };
	timer_t timer;
	sigset_t set;
	int i;

	if (timer_create(CLOCK_MONOTONIC, &sev, &timer) || timer_settime(timer, 0, &its, NULL))
		return -1;
	for (i = 0; i < 5000; i++) {
		sigpending(&set);
		if (sigismember(&set, SIGRTMIN))
			break;
		usleep(1000);
	}
	if (i == 5000)
		return -1;
	return timer_delete(timer);
}

static int plain_reads_deleted_timer(int unused)
{
	struct signalfd_siginfo si;
	sigset_t set;
	int fd, n;

	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	sigprocmask(SIG_BLOCK, &set, NULL);
	fd = signalfd(-1, &set, SFD_NONBLOCK);
	if (fd < 0 || timer_fired_then_deleted())
		return 100;
	for (n = 0; read(fd, &si, REC) == REC; n++)
		;
	return n;
}

TEST_F(remote, deleted_timer_signal_as_plain)
{
	struct signalfd_siginfo si;
	int *sv = self->sv;
	int fd, want, n, status;
	pid_t pid;

	want = in_child(plain_reads_deleted_timer, -1);
	ASSERT_LE(0, want);
	ASSERT_GE(1, want);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		fd = creator_fd(SIGRTMIN, 0, SFD_NONBLOCK);
		if (send_fd(sv[1], fd) || timer_fired_then_deleted() ||
		    write(sv[1], "x", 1) != 1 || read_byte(sv[1]) < 0)
			_exit(1);
		_exit(0);
	}
	fd = recv_fd(sv[0]);
	ASSERT_GE(fd, 0);
	ASSERT_NE(-1, read_byte(sv[0]));
	TH_LOG("deleted timer's signal: plain signalfd reads %d, FIONREAD %d", want, records(fd));
	EXPECT_EQ(want, records(fd));
	ASSERT_EQ(1, write(sv[0], "x", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	for (n = 0; read(fd, &si, REC) == REC; n++)
		;
	EXPECT_EQ(want, n);
	close(fd);
}

#define STALE_QUEUED 20000

/*
 * A creator with a posix timer on each of 56 signals, each fired and
 * re-armed (its queued signal stale), then STALE_QUEUED values of one of
 * them queued: its end hands the queue over in one pass, whatever the
 * number of stale signals. The values arrive in order; the rest is the timers'
 * (7.x drops stale timer signals; 6.12 delivers them); then end of file.
 * The exit time is printed (the docs cite it), not judged.
 */
/* Whether every signal of @set is pending, waiting at most five seconds. */
static bool all_pending(sigset_t *set)
{
	sigset_t pending;
	int i, sig;

	for (i = 0; i < 5000; i++) {
		sigpending(&pending);
		for (sig = 1; sig < _NSIG; sig++)
			if (sigismember(set, sig) && !sigismember(&pending, sig))
				break;
		if (sig == _NSIG)
			return true;
		usleep(1000);
	}
	return false;
}

static int stale_timers_then_exit(int sock, long *exit_start_ns, int *timed)
{
	struct itimerspec soon = { .it_value.tv_nsec = 1000000 };
	struct itimerspec later = { .it_value.tv_sec = 3600 };
	struct rlimit rl = { STALE_QUEUED + 1000, STALE_QUEUED + 1000 };
	timer_t timers[_NSIG];
	struct timespec t;
	sigset_t all, armed;
	int fd, sig, n = 0, i;

	if (setrlimit(RLIMIT_SIGPENDING, &rl))
		return 1;
	/* Without libc's own signals, which it keeps unblocked. */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
	fd = signalfd(-1, &all, SFD_CREATOR | SFD_NONBLOCK);
	if (fd < 0 || send_fd(sock, fd))
		return 2;
	sigemptyset(&armed);
	for (sig = 1; sig < _NSIG; sig++) {
		struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = sig };

		/* Not SIGCONT and the stop signals: each flushes the other. */
		if (sig == SIGKILL || sig == SIGSTOP || sig == SIGCONT || sig == SIGTSTP ||
		    sig == SIGTTIN || sig == SIGTTOU || !sigismember(&all, sig))
			continue;
		if (timer_create(CLOCK_MONOTONIC, &sev, &timers[n]) ||
		    timer_settime(timers[n++], 0, &soon, NULL))
			return 3;
		sigaddset(&armed, sig);
	}
	if (!all_pending(&armed))
		return 4;
	*timed = n;
	while (n > 0)
		if (timer_settime(timers[--n], 0, &later, NULL))
			return 5;
	for (i = 0; i < STALE_QUEUED; i++) {
		union sigval value = { .sival_int = i };

		if (sigqueue(getpid(), SIGRTMAX, value))
			return 6;
	}
	if (write(sock, "x", 1) != 1 || read_byte(sock) < 0)
		return 7;
	clock_gettime(CLOCK_MONOTONIC, &t);
	*exit_start_ns = t.tv_sec * 1000000000L + t.tv_nsec;
	return 0;
}

TEST_F(remote, exit_with_stale_timer_signals)
{
	struct signalfd_siginfo si;
	struct timespec t;
	int *sv = self->sv;
	int fd, status, next = 0, timers = 0;
	long *shared;
	ssize_t n;
	pid_t pid;

	/* The exit's start, in ns, and the number of timers. */
	shared = mmap(NULL, 2 * sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, shared);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		int timed = 0, rc = stale_timers_then_exit(sv[1], &shared[0], &timed);

		shared[1] = timed;
		_exit(rc);
	}
	fd = recv_fd(sv[0]);
	ASSERT_GE(fd, 0);
	ASSERT_NE(-1, read_byte(sv[0]));
	ASSERT_EQ(1, write(sv[0], "x", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	clock_gettime(CLOCK_MONOTONIC, &t);
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	TH_LOG("creator exit with %ld stale timer signals and %d queued: %ld us", shared[1],
	       STALE_QUEUED, (t.tv_sec * 1000000000L + t.tv_nsec - shared[0]) / 1000);
	while ((n = read(fd, &si, REC)) == REC) {
		if (si.ssi_code == SI_QUEUE) {
			ASSERT_EQ(SIGRTMAX, si.ssi_signo);
			ASSERT_EQ(next, si.ssi_int);
			next++;
		} else {
			ASSERT_EQ(SI_TIMER, si.ssi_code);
			timers++;
		}
	}
	EXPECT_EQ(0, n);
	EXPECT_EQ(STALE_QUEUED, next);
	TH_LOG("%d stale timer signals read", timers);
	close(fd);
	munmap(shared, 2 * sizeof(*shared));
}

#define SFD_MANY 20000

static int many_fds[SFD_MANY], many_fds_made;

/* A creator thread with @p descriptors (an int) that exits at once. */
static void *creator_of_many(void *p)
{
	struct timespec *t = p;
	int n = t->tv_sec;

	for (many_fds_made = 0; many_fds_made < n; many_fds_made++) {
		many_fds[many_fds_made] = creator_fd(SIGUSR1, 0, SFD_NONBLOCK);
		if (many_fds[many_fds_made] < 0)
			return NULL;
	}
	clock_gettime(CLOCK_MONOTONIC, t);
	return NULL;
}

/* How long a creator thread with @n descriptors takes to exit, in ns. */
static long thread_exit_ns(int n)
{
	struct timespec t = { .tv_sec = n }, end;
	pthread_t th;
	int i;

	if (pthread_create(&th, NULL, creator_of_many, &t) || pthread_join(th, NULL))
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &end);
	for (i = 0; i < many_fds_made; i++)
		close(many_fds[i]);
	if (many_fds_made != n)
		return -1;
	return (end.tv_sec - t.tv_sec) * 1000000000L + end.tv_nsec - t.tv_nsec;
}

/*
 * Making and closing 20,000 descriptors takes about 7 s a round under KASAN
 * in QEMU: five rounds need more than the harness's default 30 s.
 */
FIXTURE(many_descriptors) {};
FIXTURE_SETUP(many_descriptors) {}
FIXTURE_TEARDOWN(many_descriptors) {}

/*
 * A creator's end does not walk its descriptors with interrupts off: a
 * creator thread with 20,000 descriptors exits about as fast as one with
 * one (the least of five exits each).
 */
TEST_F_TIMEOUT(many_descriptors, exit_with_many_descriptors, 180)
{
	struct rlimit rl = { SFD_MANY + 100, SFD_MANY + 100 };
	long one = -1, many = -1, t;
	int round;

	if (!creator_supported())
		SKIP(return, "SFD_CREATOR not supported");
	if (setrlimit(RLIMIT_NOFILE, &rl))
		SKIP(return, "cannot raise RLIMIT_NOFILE to %d", SFD_MANY + 100);
	for (round = 0; round < 5; round++) {
		t = thread_exit_ns(1);
		ASSERT_LT(0, t);
		one = one < 0 || t < one ? t : one;
		t = thread_exit_ns(SFD_MANY);
		ASSERT_LT(0, t);
		many = many < 0 || t < many ? t : many;
	}
	TH_LOG("creator thread exit: %ld us with 1 descriptor, %ld us with %d",
	       one / 1000, many / 1000, SFD_MANY);
	EXPECT_GT(one + 2000000, many);
	unblock_all();
}

static int exec_probe_thread_fd = -1;

static void *creator_then_wait(void *p)
{
	int *up = p;

	exec_probe_thread_fd = creator_fd(SIGUSR1, 0, SFD_NONBLOCK);
	if (write(*up, "x", 1) != 1)
		return NULL;
	/* Until the main thread's exec kills it. */
	for (;;)
		pause();
	return NULL;
}

/*
 * A creator thread killed by another thread's exec (in de_thread()) is
 * not the process's last: the process's signals go on to the new program.
 */
TEST_F(remote, de_thread_leaves_shared_queue)
{
	struct signalfd_siginfo si;
	int *sv = self->sv;
	int pipefd[2], fd, status;
	pid_t child;
	pthread_t t;
	char c;

	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		sigset_t usr1;

		sigemptyset(&usr1);
		sigaddset(&usr1, SIGUSR1);
		sigprocmask(SIG_BLOCK, &usr1, NULL);
		if (pipe(pipefd) ||
		    pthread_create(&t, NULL, creator_then_wait, &pipefd[1]) ||
		    read(pipefd[0], &c, 1) != 1 ||
		    send_fd(sv[1], exec_probe_thread_fd))
			_exit(2);
		kill(getpid(), SIGUSR1);
		setenv("SFD_PENDING_PROBE", "1", 1);
		execl("/proc/self/exe", "probe", (char *)NULL);
		_exit(3);
	}
	fd = recv_fd(sv[0]);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	/* The new program has SIGUSR1; the creator thread's descriptor not. */
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0, read(fd, &si, REC));
	close(fd);
}

static void *creator_thread_execs(void *p)
{
	int sock = *(int *)p, fd;

	fd = creator_fd(SIGUSR1, SIGUSR2, SFD_CLOEXEC);
	syscall(SYS_tgkill, getpid(), gettid(), SIGUSR2);
	kill(getpid(), SIGUSR1);
	if (send_fd(sock, fd))
		_exit(2);
	setenv("SFD_PENDING_PROBE", "2", 1);
	execl("/proc/self/exe", "probe", (char *)NULL);
	_exit(3);
}

/*
 * A creator thread other than the leader that execs (de_thread() makes it
 * the leader) ends its descriptor and takes nothing: its own signals and
 * the process's stay pending for the new program.
 */
TEST_F(remote, creator_thread_exec_leaves_pending)
{
	struct signalfd_siginfo si;
	int *sv = self->sv;
	int fd, status;
	pid_t child;

	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		sigset_t both;
		pthread_t t;

		sigemptyset(&both);
		sigaddset(&both, SIGUSR1);
		sigaddset(&both, SIGUSR2);
		sigprocmask(SIG_BLOCK, &both, NULL);
		if (pthread_create(&t, NULL, creator_thread_execs, &sv[1]))
			_exit(4);
		/* Until the creator thread's exec kills it. */
		for (;;)
			pause();
	}
	fd = recv_fd(sv[0]);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	/* The new program has both signals pending. */
	EXPECT_EQ(0, WEXITSTATUS(status));
	/* The creator is gone: a read that would wait ends at once instead. */
	ASSERT_EQ(0, fcntl(fd, F_SETFL, O_NONBLOCK));
	EXPECT_EQ(0, read(fd, &si, REC));
	close(fd);
}

static int child_counts(int fd)
{
	return records(fd) == 3 ? 0 : 1;
}

/* FIONREAD gives the bytes a read would return, on both kinds. */
TEST_F(creator, fionread)
{
	sigset_t set;
	int i, plain;

	EXPECT_EQ(0, records(self->fd));
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = i }));
	EXPECT_EQ(3, records(self->fd));
	EXPECT_EQ(0, in_child(child_counts, self->fd));
	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	plain = signalfd(-1, &set, SFD_NONBLOCK);
	ASSERT_GE(plain, 0);
	EXPECT_EQ(3, records(plain));
	close(plain);
	while (sigtimedwait(&set, NULL, &(struct timespec){ 0 }) > 0)
		;
}

static int fd_is_named(int fd, const char *name)
{
	char path[64], link[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return 0;
	link[n] = 0;
	return !strcmp(link, name);
}

/* The fdinfo line @key of @fd, as a number, or -1. */
static long fdinfo_value(int fd, const char *key)
{
	char path[64], line[128];
	size_t len = strlen(key);
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, len) && line[len] == ':')
			v = strtol(line + len + 1, NULL, 10);
	fclose(f);
	return v;
}

/* Tools tell the kinds apart; fdinfo names a creator even once reaped. */
TEST_F(remote, name_and_fdinfo)
{
	int *sv = self->sv;
	int fd, plain, status;
	sigset_t set;
	pid_t child;

	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0)
		_exit(send_fd(sv[1], creator_fd(SIGUSR1, 0, 0)) ? 1 : 0);
	fd = recv_fd(sv[0]);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_TRUE(fd_is_named(fd, "anon_inode:[signalfd-creator]"));
	EXPECT_EQ(child, fdinfo_value(fd, "creator"));
	EXPECT_EQ(1, fdinfo_value(fd, "creator_gone"));
	sigemptyset(&set);
	plain = signalfd(-1, &set, 0);
	ASSERT_GE(plain, 0);
	EXPECT_TRUE(fd_is_named(plain, "anon_inode:[signalfd]"));
	close(plain);
	close(fd);
	unblock_all();
}

static pid_t fdinfo_creator_want;

/*
 * fdinfo numbers the creator as the /proc it is read through numbers
 * tasks (as pidfd's "Pid:"): a reader in a new pid namespace, reading
 * through its parent namespace's /proc, sees the creator's number there.
 */
static int fdinfo_from_child_pid_ns(int fd)
{
	pid_t pid;
	int status;

	if (unshare(CLONE_NEWPID))
		return 77;
	pid = fork();
	if (pid == 0)
		_exit(fdinfo_value(fd, "creator") == fdinfo_creator_want ? 0 : 1);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 2;
	return WEXITSTATUS(status);
}

TEST_F(creator, fdinfo_numbered_by_proc)
{
	int status;

	fdinfo_creator_want = getpid();
	EXPECT_EQ(getpid(), fdinfo_value(self->fd, "creator"));
	status = in_child(fdinfo_from_child_pid_ns, self->fd);
	if (status == 77)
		SKIP(return, "unshare(CLONE_NEWPID) refused: needs CAP_SYS_ADMIN, CONFIG_PID_NS");
	EXPECT_EQ(0, status);
}

/* A reader in another user namespace reads a kernel-sent uid 0 as 0. */
static int child_reads_kernel_uid(int fd)
{
	struct signalfd_siginfo si;

	if (unshare(CLONE_NEWUSER))
		return 77;
	if (read_one(fd, &si) != SIGALRM || si.ssi_code != SI_KERNEL)
		return 1;
	return si.ssi_uid == 0 ? 0 : 2;
}

TEST(kernel_uid_untranslated)
{
	struct itimerval itv = { .it_value.tv_usec = 10000 };
	int fd = creator_fd(SIGALRM, 0, SFD_NONBLOCK);
	int status;

	if (!creator_supported())
		SKIP(return, "SFD_CREATOR not supported");
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, setitimer(ITIMER_REAL, &itv, NULL));
	status = in_child(child_reads_kernel_uid, fd);
	if (status == 77)
		SKIP(return, "unshare(CLONE_NEWUSER) refused: needs CONFIG_USER_NS");
	EXPECT_EQ(0, status);
	close(fd);
	unblock_all();
}

/* epoll asleep in another process is woken by a signal sent later. */
TEST_F(creator, epoll_in_another_process)
{
	EXPECT_EQ(0, poller_woken(self->fd, true));
}

struct poller {
	struct pollfd *pfd;
	nfds_t nfds;
	int up[2];	/* poller to test: its tid, about to poll */
	int ready;	/* what poll() returned */
};

static void *poll_thread(void *p)
{
	struct poller *pl = p;
	pid_t tid = gettid();

	if (write(pl->up[1], &tid, sizeof(tid)) == sizeof(tid))
		pl->ready = poll(pl->pfd, pl->nfds, 5000);
	return NULL;
}

/*
 * Send @sig to this process once another thread sleeps in poll() of @pfd
 * (seen asleep in /proc): what that poll() returned, within five seconds,
 * or -1 if the thread was never seen asleep.
 */
static int poll_woken_by(struct pollfd *pfd, nfds_t nfds, int sig)
{
	struct poller pl = { .pfd = pfd, .nfds = nfds, .ready = -1 };
	struct pollfd up = { .events = POLLIN };
	bool slept = false;
	pthread_t t;
	pid_t tid;

	if (pipe(pl.up))
		return -1;
	up.fd = pl.up[0];
	if (pthread_create(&t, NULL, poll_thread, &pl) == 0) {
		if (poll(&up, 1, 5000) == 1 &&
		    read(pl.up[0], &tid, sizeof(tid)) == sizeof(tid))
			slept = asleep(tid);
		kill(getpid(), sig);
		pthread_join(t, NULL);
	}
	close(pl.up[0]);
	close(pl.up[1]);
	return slept ? pl.ready : -1;
}

/*
 * Several descriptors of one creator share its wake-up: a poller asleep on
 * all of them is woken for the signals of each, before and after another
 * one is closed.
 */
TEST(several_descriptors_one_creator)
{
	struct pollfd pfd[3];
	sigset_t set;
	int fd[3], i;
	const int sig[3] = { SIGUSR1, SIGUSR2, SIGRTMIN };

	if (!creator_supported())
		SKIP(return, "SFD_CREATOR not supported");
	for (i = 0; i < 3; i++) {
		fd[i] = creator_fd(sig[i], 0, SFD_NONBLOCK);
		ASSERT_GE(fd[i], 0);
		pfd[i] = (struct pollfd){ .fd = fd[i], .events = POLLIN };
	}
	EXPECT_EQ(0, poll(pfd, 3, 0));
	/* The poller thread inherits this thread's mask: they stay pending. */
	EXPECT_EQ(1, poll_woken_by(pfd, 3, SIGUSR2));
	EXPECT_EQ(POLLIN, pfd[1].revents);
	close(fd[1]);
	pfd[1].fd = -1;
	EXPECT_EQ(1, poll_woken_by(pfd, 3, SIGRTMIN));
	EXPECT_EQ(POLLIN, pfd[2].revents);
	close(fd[0]);
	close(fd[2]);
	/* All closed: the signals are the process's, as without them. */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	sigaddset(&set, SIGRTMIN);
	EXPECT_EQ(SIGUSR2, wait_signal(&set));
	EXPECT_EQ(SIGRTMIN, wait_signal(&set));
	unblock_all();
}

static void *close_soon(void *p)
{
	close(*(int *)p);
	return NULL;
}

/* Closing a descriptor while its creator exits: either order is clean. */
TEST_F(remote, close_races_exit)
{
	int *sv = self->sv;
	int fd, dup_fd, i, status;
	struct signalfd_siginfo si;
	pthread_t t;
	pid_t child;

	for (i = 0; i < 200; i++) {
		child = fork();
		ASSERT_GE(child, 0);
		if (child == 0) {
			fd = creator_fd(SIGUSR1, 0, SFD_NONBLOCK);
			kill(getpid(), SIGUSR1);
			_exit(send_fd(sv[1], fd) ? 1 : 0);
		}
		fd = recv_fd(sv[0]);
		ASSERT_GE(fd, 0);
		/* Every other round the last reference goes: release races exit. */
		dup_fd = i % 2 ? dup(fd) : -1;
		ASSERT_EQ(0, pthread_create(&t, NULL, close_soon, &fd));
		ASSERT_EQ(child, waitpid(child, &status, 0));
		EXPECT_EQ(0, status);
		ASSERT_EQ(0, pthread_join(t, NULL));
		if (dup_fd < 0)
			continue;
		/* A duplicate still has the creator's signal, then the end. */
		EXPECT_EQ(SIGUSR1, read_one(dup_fd, &si));
		EXPECT_EQ(0, read(dup_fd, &si, REC));
		close(dup_fd);
	}
}

struct leaver {
	int sock;
	int cpu;
};

static int leavers_ready;

/*
 * Make a descriptor for SIGUSR1, pass it on, and leave when the other
 * thread does. Each runs on a CPU of its own when it can, and neither
 * sleeps, so that both reach do_exit() together. exit(2) itself: glibc's
 * pthread_exit() would have the last thread call exit_group().
 */
static void *create_then_leave_together(void *p)
{
	struct leaver *l = p;
	cpu_set_t cpus;
	int fd;

	CPU_ZERO(&cpus);
	CPU_SET(l->cpu, &cpus);
	sched_setaffinity(0, sizeof(cpus), &cpus);
	fd = creator_fd(SIGUSR1, 0, SFD_NONBLOCK);
	if (fd < 0 || send_fd(l->sock, fd))
		_exit(1);
	__atomic_add_fetch(&leavers_ready, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&leavers_ready, __ATOMIC_SEQ_CST) < 2)
		sched_yield();
	syscall(SYS_exit, 0);
	return NULL;
}

/* Records of @sig a descriptor gives before its end of file, or -1. */
static int records_until_eof(int fd, int sig)
{
	struct signalfd_siginfo si;
	int count = 0;
	ssize_t n;

	while ((n = read(fd, &si, REC)) == REC)
		count += si.ssi_signo == (unsigned int)sig;
	return n == 0 ? count : -1;
}

/*
 * The process's last two threads, both creators, leave at the same moment
 * with a process-directed signal pending. The process's program ends with
 * the later of the two: its descriptor takes the signal, the other's not.
 */
TEST_F(remote, last_threads_leave_together)
{
	int *sv = self->sv;
	int fd[2], n[2], i, status, lost = 0;
	struct leaver l[2];
	const int rounds = 200;
	pthread_t t;
	pid_t child;

	l[0] = (struct leaver){ .sock = sv[1], .cpu = 0 };
	l[1] = (struct leaver){ .sock = sv[1], .cpu = 1 };
	for (i = 0; i < rounds; i++) {
		child = fork();
		ASSERT_GE(child, 0);
		if (child == 0) {
			sigset_t usr1;

			sigemptyset(&usr1);
			sigaddset(&usr1, SIGUSR1);
			sigprocmask(SIG_BLOCK, &usr1, NULL);
			kill(getpid(), SIGUSR1);
			if (pthread_create(&t, NULL, create_then_leave_together, &l[1]))
				_exit(1);
			create_then_leave_together(&l[0]);
		}
		fd[0] = recv_fd(sv[0]);
		fd[1] = recv_fd(sv[0]);
		ASSERT_GE(fd[0], 0);
		ASSERT_GE(fd[1], 0);
		ASSERT_EQ(child, waitpid(child, &status, 0));
		ASSERT_EQ(0, status);
		n[0] = records_until_eof(fd[0], SIGUSR1);
		n[1] = records_until_eof(fd[1], SIGUSR1);
		ASSERT_GE(n[0], 0);
		ASSERT_GE(n[1], 0);
		ASSERT_LE(n[0] + n[1], 1);
		lost += n[0] + n[1] == 0;
		close(fd[0]);
		close(fd[1]);
	}
	EXPECT_EQ(0, lost) TH_LOG("the signal was lost in %d of %d rounds", lost, rounds);
}

/*
 * The creator child of the async tests: it passes a descriptor for
 * SIGRTMIN on over @sv, and leaves when told over @go (or when the test
 * ends). The descriptor here, or -1.
 */
static int async_creator(int sv[2], int go[2], pid_t *child)
{
	char c;
	int fd;

	*child = fork();
	if (*child < 0)
		return -1;
	if (*child)
		return recv_fd(sv[0]);
	close(go[1]);
	fd = creator_fd(SIGRTMIN, 0, 0);
	if (fd < 0 || send_fd(sv[1], fd) || read(go[0], &c, 1) != 1)
		_exit(1);
	_exit(0);
}

/* Every byte of the value defined: records are compared whole. */
static void queue_to(pid_t pid, int value)
{
	sigqueue(pid, SIGRTMIN, (union sigval){ .sival_ptr = (void *)(uintptr_t)value });
}

struct ring {
	int fd;
	unsigned int *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
	void *sq, *cq;
	size_t sq_len, cq_len, sqes_len;
};

/* An io_uring of four entries, by the raw system calls; -1 and errno. */
static int ring_open(struct ring *g)
{
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	g->fd = syscall(__NR_io_uring_setup, 4, &p);
	if (g->fd < 0)
		return -1;
	g->sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	g->cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	g->sqes_len = p.sq_entries * sizeof(struct io_uring_sqe);
	g->sq = mmap(NULL, g->sq_len, PROT_READ | PROT_WRITE, MAP_SHARED, g->fd,
		     IORING_OFF_SQ_RING);
	g->cq = mmap(NULL, g->cq_len, PROT_READ | PROT_WRITE, MAP_SHARED, g->fd,
		     IORING_OFF_CQ_RING);
	g->sqes = mmap(NULL, g->sqes_len, PROT_READ | PROT_WRITE, MAP_SHARED, g->fd,
		       IORING_OFF_SQES);
	if (g->sq == MAP_FAILED || g->cq == MAP_FAILED || g->sqes == MAP_FAILED)
		return -1;
	g->sq_tail = g->sq + p.sq_off.tail;
	g->sq_mask = g->sq + p.sq_off.ring_mask;
	g->sq_array = g->sq + p.sq_off.array;
	g->cq_head = g->cq + p.cq_off.head;
	g->cq_tail = g->cq + p.cq_off.tail;
	g->cq_mask = g->cq + p.cq_off.ring_mask;
	g->cqes = g->cq + p.cq_off.cqes;
	return 0;
}

static void ring_close(struct ring *g)
{
	munmap(g->sq, g->sq_len);
	munmap(g->cq, g->cq_len);
	munmap(g->sqes, g->sqes_len);
	close(g->fd);
}

/* Submit an IORING_OP_READ of @len bytes of @fd into @buf. */
static int ring_read(struct ring *g, int fd, void *buf, unsigned int len)
{
	unsigned int tail = *g->sq_tail, i = tail & *g->sq_mask;
	struct io_uring_sqe *sqe = &g->sqes[i];

	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_READ;
	sqe->fd = fd;
	sqe->addr = (uintptr_t)buf;
	sqe->len = len;
	g->sq_array[i] = i;
	__atomic_store_n(g->sq_tail, tail + 1, __ATOMIC_RELEASE);
	return syscall(__NR_io_uring_enter, g->fd, 1, 0, 0, NULL, 0) == 1 ? 0 : -1;
}

/* The result of the next completion, waiting at most five seconds. */
static int ring_result(struct ring *g, int *res)
{
	struct pollfd pfd = { .fd = g->fd, .events = POLLIN };
	unsigned int head = *g->cq_head;

	if (poll(&pfd, 1, 5000) != 1 ||
	    head == __atomic_load_n(g->cq_tail, __ATOMIC_ACQUIRE))
		return -1;
	*res = g->cqes[head & *g->cq_mask].res;
	__atomic_store_n(g->cq_head, head + 1, __ATOMIC_RELEASE);
	return 0;
}

/* Whether nothing has completed yet: poll of the ring times out. */
static int ring_idle(struct ring *g)
{
	struct pollfd pfd = { .fd = g->fd, .events = POLLIN };

	return poll(&pfd, 1, 0) == 0;
}

/*
 * io_uring reads of a creator's descriptor in another process: a read in
 * flight gets the record queued later, whole and as read() gives it, and
 * one in flight at the creator's end gets end of file.
 */
TEST_F(remote, io_uring_read_in_another_process)
{
	struct signalfd_siginfo si[3], plain;
	int fd, res, status;
	struct ring g;
	pid_t child;

	fd = async_creator(self->sv, self->go, &child);
	ASSERT_GE(fd, 0);
	if (ring_open(&g)) {
		stop_child(child);
		SKIP(return, "io_uring_setup: %s: needs CONFIG_IO_URING", strerror(errno));
	}
	memset(si, 0xff, sizeof(si));
	ASSERT_EQ(0, ring_read(&g, fd, si, sizeof(si)));
	EXPECT_TRUE(ring_idle(&g));
	queue_to(child, 7);
	ASSERT_EQ(0, ring_result(&g, &res));
	EXPECT_EQ(REC, res);
	queue_to(child, 7);
	ASSERT_EQ(SIGRTMIN, read_one(fd, &plain));
	EXPECT_EQ(0, memcmp(&plain, &si[0], REC));
	EXPECT_EQ(SI_QUEUE, si[0].ssi_code);
	EXPECT_EQ(7, si[0].ssi_int);
	EXPECT_EQ(getpid(), si[0].ssi_pid);

	/* In flight when the creator goes: end of file. */
	ASSERT_EQ(0, ring_read(&g, fd, si, sizeof(si)));
	EXPECT_TRUE(ring_idle(&g));
	ASSERT_EQ(1, write(self->go[1], "x", 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, status);
	ASSERT_EQ(0, ring_result(&g, &res));
	EXPECT_EQ(0, res);
	ASSERT_EQ(0, ring_read(&g, fd, si, sizeof(si)));
	ASSERT_EQ(0, ring_result(&g, &res));
	EXPECT_EQ(0, res);
	ring_close(&g);
	close(fd);
}

/* One aio request on @ctx; its result, or -errno if it was refused. */
static long aio_one(aio_context_t ctx, struct iocb *cb)
{
	struct timespec limit = { .tv_sec = 5 };
	struct iocb *cbs[1] = { cb };
	struct io_event ev;

	if (syscall(__NR_io_submit, ctx, 1, cbs) != 1)
		return -errno;
	if (syscall(__NR_io_getevents, ctx, 1, 1, &ev, &limit) != 1)
		return -ETIMEDOUT;
	return ev.res;
}

/*
 * aio in another process: IOCB_CMD_PREAD gets a record whole and as read()
 * gives it, then end of file once the creator has gone; IOCB_CMD_POLL
 * waits for the creator's signal, and then for its end.
 */
TEST_F(remote, aio_read_in_another_process)
{
	struct timespec none = { 0 };
	struct signalfd_siginfo si[3], plain;
	struct iocb rd = { .aio_lio_opcode = IOCB_CMD_PREAD, .aio_nbytes = sizeof(si) };
	struct iocb pl = { .aio_lio_opcode = IOCB_CMD_POLL, .aio_buf = POLLIN };
	struct iocb *cbs[1] = { &pl };
	int fd, status;
	aio_context_t ctx = 0;
	struct io_event ev;
	pid_t child;

	fd = async_creator(self->sv, self->go, &child);
	ASSERT_GE(fd, 0);
	if (syscall(__NR_io_setup, 4, &ctx)) {
		stop_child(child);
		SKIP(return, "io_setup: %s: needs CONFIG_AIO", strerror(errno));
	}
	rd.aio_fildes = fd;
	rd.aio_buf = (uintptr_t)si;
	pl.aio_fildes = fd;
	/*
	 * aio reads a signalfd within io_submit(): non-blocking, a record
	 * that never comes fails the read instead of hanging the test.
	 */
	ASSERT_EQ(0, fcntl(fd, F_SETFL, O_NONBLOCK));

	/* A poll waits for the creator's signal. */
	ASSERT_EQ(1, syscall(__NR_io_submit, ctx, 1, cbs));
	EXPECT_EQ(0, syscall(__NR_io_getevents, ctx, 1, 1, &ev, &none));
	queue_to(child, 9);
	EXPECT_EQ(1, syscall(__NR_io_getevents, ctx, 1, 1, &ev,
			     &(struct timespec){ .tv_sec = 5 }));
	EXPECT_EQ(POLLIN, ev.res);
	memset(si, 0xff, sizeof(si));
	EXPECT_EQ(REC, aio_one(ctx, &rd));
	queue_to(child, 9);
	ASSERT_EQ(SIGRTMIN, read_one(fd, &plain));
	EXPECT_EQ(0, memcmp(&plain, &si[0], REC));
	EXPECT_EQ(9, si[0].ssi_int);

	/* A poll in flight at the creator's end; then reads get the end. */
	ASSERT_EQ(1, syscall(__NR_io_submit, ctx, 1, cbs));
	EXPECT_EQ(0, syscall(__NR_io_getevents, ctx, 1, 1, &ev, &none));
	ASSERT_EQ(1, write(self->go[1], "x", 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, status);
	EXPECT_EQ(1, syscall(__NR_io_getevents, ctx, 1, 1, &ev,
			     &(struct timespec){ .tv_sec = 5 }));
	EXPECT_EQ(POLLIN | POLLHUP, ev.res);
	EXPECT_EQ(0, aio_one(ctx, &rd));
	syscall(__NR_io_destroy, ctx);
	close(fd);
}

/* clone() aligns the stack pointer it is given. */
static long sibling_stack[8192];

struct sibling_arg {
	int parent_fd;		/* the clone parent's, inherited */
	int sock;		/* to pass the sibling's own on */
	int setmask_errno;	/* of signalfd4() on parent_fd */
	int go[2];		/* test to sibling: leave now */
};

/*
 * A CLONE_SIGHAND sibling: its own descriptor, then wait for the end. It
 * shares this process's memory and glibc's thread data (no CLONE_SETTLS),
 * which the few calls here allow: they keep no state but errno, written
 * only by the expected EPERM and read at once, before the descriptor the
 * test waits for is sent; it leaves by exit(2) itself, not glibc's exit.
 */
static int sibling_main(void *p)
{
	struct sibling_arg *arg = p;
	sigset_t usr1;
	char c;
	int fd;

	/* The test's end of @go alone: its exit ends the wait below. */
	close(arg->go[1]);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	arg->setmask_errno = signalfd(arg->parent_fd, &usr1, 0) < 0 ? errno : 0;
	fd = signalfd(-1, &usr1, SFD_CREATOR | SFD_NONBLOCK);
	if (fd < 0 || send_fd(arg->sock, fd) || read(arg->go[0], &c, 1) != 1)
		syscall(SYS_exit, 1);
	syscall(SYS_exit, 0);
	return 0;
}

/* The signal (0 if none) and value of @fd's next record, without waiting. */
static int next_value(int fd, int *value)
{
	struct signalfd_siginfo si;

	if (read(fd, &si, REC) != REC)
		return 0;
	*value = si.ssi_int;
	return si.ssi_signo;
}

/*
 * Two processes share one sighand (CLONE_VM | CLONE_SIGHAND, not
 * CLONE_THREAD): one siglock, two processes' queues. Each creator's
 * descriptor reads its own process's signals only, changes its mask only
 * from its own process, and ends with its own creator, not the other.
 */
TEST_F(remote, clone_sighand_sibling)
{
	int *sv = self->sv;
	int fd_p, fd_s, value = 0, status;
	struct sibling_arg arg = { 0 };
	struct signalfd_siginfo si;
	struct pollfd pfd;
	sigset_t usr1;
	pid_t sib;

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	ASSERT_EQ(0, pipe(arg.go));
	fd_p = creator_fd(SIGUSR1, 0, SFD_NONBLOCK);
	ASSERT_GE(fd_p, 0);
	arg.parent_fd = fd_p;
	arg.sock = sv[1];
	sib = clone(sibling_main, sibling_stack + 8192,
		    CLONE_VM | CLONE_SIGHAND | SIGCHLD, &arg);
	ASSERT_GT(sib, 0);
	fd_s = recv_fd(sv[0]);
	ASSERT_GE(fd_s, 0);
	EXPECT_EQ(EPERM, arg.setmask_errno);
	EXPECT_EQ(fd_p, signalfd(fd_p, &usr1, 0));

	ASSERT_EQ(0, sigqueue(getpid(), SIGUSR1, (union sigval){ .sival_int = 1 }));
	ASSERT_EQ(0, sigqueue(sib, SIGUSR1, (union sigval){ .sival_int = 2 }));
	EXPECT_EQ(SIGUSR1, next_value(fd_s, &value));
	EXPECT_EQ(2, value);
	EXPECT_EQ(0, next_value(fd_s, &value));
	EXPECT_EQ(SIGUSR1, next_value(fd_p, &value));
	EXPECT_EQ(1, value);
	EXPECT_EQ(0, next_value(fd_p, &value));

	/* The sibling's end is its descriptor's, not this process's. */
	ASSERT_EQ(0, sigqueue(sib, SIGUSR1, (union sigval){ .sival_int = 3 }));
	ASSERT_EQ(1, write(arg.go[1], "x", 1));
	ASSERT_EQ(sib, waitpid(sib, &status, __WALL));
	EXPECT_EQ(0, status);
	EXPECT_EQ(SIGUSR1, next_value(fd_s, &value));
	EXPECT_EQ(3, value);
	EXPECT_EQ(0, read(fd_s, &si, REC));
	pfd = (struct pollfd){ .fd = fd_p, .events = POLLIN };
	EXPECT_EQ(0, poll(&pfd, 1, 0));
	ASSERT_EQ(0, sigqueue(getpid(), SIGUSR1, (union sigval){ .sival_int = 4 }));
	EXPECT_EQ(1, poll(&pfd, 1, 5000));
	EXPECT_EQ(POLLIN, pfd.revents);
	EXPECT_EQ(SIGUSR1, next_value(fd_p, &value));
	EXPECT_EQ(4, value);
	close(fd_s);
	close(fd_p);
	unblock_all();
}

/*
 * The faults a creator can take: a seccomp trap, or a real one. The trap
 * comes first: without seccomp filters the test skips before any check.
 */
enum fault { FAULT_SECCOMP_TRAP, FAULT_SEGV, FAULT_BUS, FAULT_FPE };

static const int fault_signal[] = { SIGSYS, SIGSEGV, SIGBUS, SIGFPE };

/* What the faulting creator child says when it has no fault to take. */
#define CHILD_NO_SECCOMP 77
#define CHILD_NO_DESCRIPTOR 78
/* Its handler's report of the fault. */
#define CHILD_HANDLED 50

static void fault_handler(int sig, siginfo_t *si, void *uc)
{
	bool trap = si->si_code == SYS_SECCOMP && si->si_syscall == SYS_getppid;

	/* Reached from the fault itself: report it, never return to it. */
	_exit((sig == SIGSYS ? trap : si->si_code > 0) ? CHILD_HANDLED : 1);
}

/*
 * A BPF filter: @action for getppid(), every other system call allowed,
 * those of another architecture (other numbers, other calls) too.
 */
static int seccomp_getppid(unsigned int action)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SFD_AUDIT_ARCH, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, action),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = ARRAY_SIZE(insns), .filter = insns };

	if (!SFD_AUDIT_ARCH) {
		errno = EOPNOTSUPP;
		return -1;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

/* Zero, in globals the compiler cannot see through. */
int *fault_address;
int fault_divisor;

static void fault(enum fault kind)
{
	int *p;

	switch (kind) {
	case FAULT_SEGV:
		*fault_address = 1;
		break;
	case FAULT_BUS:
		/* A page past the end of an empty file. */
		p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
			 syscall(SYS_memfd_create, "sfd", 0), 0);
		if (p != MAP_FAILED)
			*p = 1;
		break;
	case FAULT_FPE:
		fault_divisor = getpid() / fault_divisor;
		break;
	case FAULT_SECCOMP_TRAP:
		syscall(SYS_getppid);
		break;
	}
}

/* An integer division by zero traps on x86, not on arm64 or riscv. */
static bool division_traps(void)
{
	int status;
	pid_t child = fork();

	if (child == 0) {
		prctl(PR_SET_DUMPABLE, 0);
		fault(FAULT_FPE);
		_exit(0);
	}
	return child > 0 && waitpid(child, &status, 0) == child &&
	       WIFSIGNALED(status) && WTERMSIG(status) == SIGFPE;
}

/*
 * The creator child of synchronous_faults_left_to_creator: on CPU 0 at
 * SCHED_IDLE, so that the reader woken by its fault runs before it can
 * take the signal on its way back to user mode. With @handler its
 * handler reports the fault (CHILD_HANDLED), without it the fault kills
 * it. Its CPU is its parent's one.
 */
static void faulting_creator(int sock, int go, enum fault kind, bool handler)
{
	struct sigaction sa = { .sa_sigaction = fault_handler, .sa_flags = SA_SIGINFO };
	struct sched_param param = { 0 };
	int sig = fault_signal[kind];
	int fd;
	char c;

	sched_setscheduler(0, SCHED_IDLE, &param);
	/* No core dump, not even to a core_pattern pipe. */
	prctl(PR_SET_DUMPABLE, 0);
	if (handler)
		sigaction(sig, &sa, NULL);
	/* Not blocked: a blocked fault is forced to its default action. */
	fd = creator_fd(sig, 0, 0);
	unblock_all();
	if (fd < 0) {
		send_fd(sock, -1);
		_exit(CHILD_NO_DESCRIPTOR);
	}
	if (kind == FAULT_SECCOMP_TRAP && seccomp_getppid(SECCOMP_RET_TRAP)) {
		send_fd(sock, -1);
		_exit(CHILD_NO_SECCOMP);
	}
	if (send_fd(sock, fd))
		_exit(CHILD_NO_DESCRIPTOR);
	if (read(go, &c, 1) != 1)
		_exit(2);
	fault(kind);
	_exit(3);
}

/*
 * A creator's synchronous fault (and a seccomp trap's SIGSYS) is the
 * faulting thread's: a reader blocked on the descriptor, woken by it,
 * leaves it, and the creator's handler runs or the fault kills it. The
 * descriptor then ends without a record.
 */
TEST_F(remote, synchronous_faults_left_to_creator)
{
	struct sigaction sa = { .sa_handler = no_op };
	int *sv = self->sv;
	int go[2], fd, kind, handler, status;
	struct signalfd_siginfo si;
	cpu_set_t cpus, one;
	pid_t child;

	/* A SIGALRM ends a read that waits too long (EINTR). */
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	/* On one CPU, the first this test may use, with the creator child. */
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(cpus), &cpus));
	CPU_ZERO(&one);
	for (kind = 0; kind < CPU_SETSIZE && !CPU_COUNT(&one); kind++)
		if (CPU_ISSET(kind, &cpus))
			CPU_SET(kind, &one);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(one), &one));
	for (kind = FAULT_SECCOMP_TRAP; kind <= FAULT_FPE; kind++) {
		if (kind == FAULT_FPE && !division_traps())
			continue;
		for (handler = 0; handler < 2; handler++) {
			ASSERT_EQ(0, pipe(go));
			child = fork();
			ASSERT_GE(child, 0);
			if (child == 0) {
				close(go[1]);
				faulting_creator(sv[1], go[0], kind, handler);
			}
			fd = recv_fd(sv[0]);
			if (fd < 0) {
				ASSERT_EQ(child, waitpid(child, &status, 0));
				ASSERT_TRUE(WIFEXITED(status) &&
					    WEXITSTATUS(status) == CHILD_NO_SECCOMP);
				SKIP(return,
				     "seccomp filter refused: needs CONFIG_SECCOMP_FILTER, a known AUDIT_ARCH");
			}
			/* Blocked in read() when the fault comes, 5 s at most. */
			ASSERT_EQ(1, write(go[1], "x", 1));
			si.ssi_signo = 0;
			alarm(5);
			EXPECT_EQ(0, read(fd, &si, REC))
				TH_LOG("%s taken by a reader (signal %d)",
				       strsignal(fault_signal[kind]), si.ssi_signo);
			alarm(0);
			kill(child, SIGKILL);
			ASSERT_EQ(child, waitpid(child, &status, 0));
			/* Its handler reported it, or it died of it. */
			EXPECT_EQ(handler ? CHILD_HANDLED : fault_signal[kind],
				  WIFEXITED(status) ? WEXITSTATUS(status) :
				  WIFSIGNALED(status) ? WTERMSIG(status) : -1);
			close(fd);
			close(go[0]);
			close(go[1]);
		}
	}
}

static int child_leaves_fault(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	struct signalfd_siginfo si;

	if (poll(&pfd, 1, 0) != 0)
		return 1;
	if (records(fd) != 0)
		return 2;
	return read(fd, &si, REC) == -1 && errno == EAGAIN ? 0 : 3;
}

static int child_reads_segv(int fd)
{
	struct signalfd_siginfo si;

	return read_one(fd, &si) == SIGSEGV && si.ssi_code == SI_USER ? 0 : 1;
}

/*
 * The rule itself, without a race: a synchronous signal (si_code > 0)
 * queued for the creator thread and blocked there is not a reader's, a
 * kill() of the same signal is.
 */
TEST(queued_fault_left_to_creator)
{
	siginfo_t info = { .si_signo = SIGSEGV, .si_code = SEGV_MAPERR };
	sigset_t segv;
	int fd;

	if (!creator_supported())
		SKIP(return, "SFD_CREATOR not supported");
	fd = creator_fd(SIGSEGV, 0, SFD_NONBLOCK);
	ASSERT_GE(fd, 0);
	/* Only a process's main thread may queue itself si_code > 0. */
	ASSERT_EQ(getpid(), gettid());
	ASSERT_EQ(0, syscall(SYS_rt_tgsigqueueinfo, getpid(), gettid(), SIGSEGV, &info));
	/* Another process's read, poll and FIONREAD pass over it. */
	EXPECT_EQ(0, in_child(child_leaves_fault, fd));
	/* Still the creator's. */
	sigemptyset(&segv);
	sigaddset(&segv, SIGSEGV);
	EXPECT_EQ(SIGSEGV, sigtimedwait(&segv, &info, &(struct timespec){ 0 }));
	EXPECT_EQ(SEGV_MAPERR, info.si_code);
	/* A kill() of it is an ordinary signal. */
	ASSERT_EQ(0, kill(getpid(), SIGSEGV));
	EXPECT_EQ(0, in_child(child_reads_segv, fd));
	close(fd);
	unblock_all();
}

/*
 * A signal whose action is SA_IMMUTABLE is left alone: a seccomp kill
 * forces SIGSYS with that action, and the SIGSYS a kill() queued for the
 * process before it stays out of the descriptor at the creator's end.
 */
TEST_F(remote, immutable_signal_left_alone)
{
	int *sv = self->sv;
	int fd, status;
	struct signalfd_siginfo si;
	pid_t child;

	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		prctl(PR_SET_DUMPABLE, 0); /* no core, not even to a pipe */
		fd = creator_fd(SIGSYS, SIGUSR1, SFD_NONBLOCK);
		kill(getpid(), SIGSYS);
		kill(getpid(), SIGUSR1);
		if (seccomp_getppid(SECCOMP_RET_KILL_PROCESS))
			fd = -1;
		if (send_fd(sv[1], fd))
			_exit(1);
		syscall(SYS_getppid);
		_exit(2);
	}
	fd = recv_fd(sv[0]);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	if (fd < 0)
		SKIP(return,
		     "seccomp filter refused: needs CONFIG_SECCOMP_FILTER, a known AUDIT_ARCH");
	ASSERT_TRUE(WIFSIGNALED(status));
	EXPECT_EQ(SIGSYS, WTERMSIG(status));
	/* SIGUSR1, handed over; SIGSYS, immutable at the end, not. */
	EXPECT_EQ(REC, read(fd, &si, REC));
	EXPECT_EQ(SIGUSR1, si.ssi_signo);
	EXPECT_EQ(0, read(fd, &si, REC)) TH_LOG("signal %d read", si.ssi_signo);
	close(fd);
}

/*
 * A traced creator (PTRACE_SEIZE): a reader takes a signal pending for it
 * as for any creator, and the tracer sees no signal-delivery-stop for it;
 * a signal the tracee takes itself stops for the tracer; a signal the
 * tracer injects at that stop and the tracee blocks is queued to the
 * tracee again (ptrace_signal()) and read like any other, from the tracer.
 */
TEST_F(remote, traced_creator)
{
	int *sv = self->sv, *go = self->go;
	int fd, status;
	struct signalfd_siginfo si;
	pid_t child;
	char c;

	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		sigset_t usr1;

		close(go[1]);
		sigemptyset(&usr1);
		sigaddset(&usr1, SIGUSR1);
		signal(SIGUSR2, SIG_IGN);
		fd = creator_fd(SIGUSR1, 0, 0);
		if (send_fd(sv[1], fd) || read(go[0], &c, 1) != 1)
			_exit(1);
		/* A SIGUSR1 the reader left would stop it here first. */
		sigprocmask(SIG_UNBLOCK, &usr1, NULL);
		sigprocmask(SIG_BLOCK, &usr1, NULL);
		kill(getpid(), SIGUSR2);
		if (read(go[0], &c, 1) != 1)
			_exit(2);
		_exit(0);
	}
	fd = recv_fd(sv[0]);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ptrace(PTRACE_SEIZE, child, NULL, NULL));
	ASSERT_EQ(0, kill(child, SIGUSR1));
	EXPECT_EQ(SIGUSR1, read_one(fd, &si));
	EXPECT_EQ(getpid(), si.ssi_pid);
	/* Taken by the reader: no stop for the tracer. */
	EXPECT_EQ(0, waitpid(child, &status, WNOHANG));

	ASSERT_EQ(1, write(go[1], "x", 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFSTOPPED(status));
	EXPECT_EQ(SIGUSR2, WSTOPSIG(status));
	EXPECT_EQ(0, status >> 16);
	/* Injected instead, blocked in the tracee: queued for it, read here. */
	ASSERT_EQ(0, ptrace(PTRACE_CONT, child, NULL, (void *)SIGUSR1));
	EXPECT_EQ(SIGUSR1, read_one(fd, &si));
	EXPECT_EQ(SI_USER, si.ssi_code);
	EXPECT_EQ(getpid(), si.ssi_pid);

	ASSERT_EQ(1, write(go[1], "x", 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	/* The creator is gone: a read that would wait fails (EAGAIN) instead. */
	ASSERT_EQ(0, fcntl(fd, F_SETFL, O_NONBLOCK));
	EXPECT_EQ(0, read(fd, &si, REC));
	close(fd);
}

TEST_HARNESS_MAIN
