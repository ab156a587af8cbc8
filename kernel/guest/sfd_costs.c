// SPDX-License-Identifier: MIT
/*
 * sfd_costs: the figures of SFD_CREATOR's costs at the creator's end, printed
 * for docs/kernel.md (a benchmark: it measures and prints, it asserts nothing;
 * the selftest checks the behaviours). Run as root in the patched guest:
 *
 *   sfd_costs exit-flood   time a creator thread's exit, and a creator
 *                          process's, while a sender keeps the queue full
 *   sfd_costs rlimit       records 100 dead creators leave, RLIMIT_SIGPENDING 1000
 *   sfd_costs dead         bytes of slab a reaped creator keeps (1000 of them)
 *   sfd_costs fanout       cost of one queued signal with 0 and 10,000 descriptors
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>

#ifndef SFD_CREATOR
#define SFD_CREATOR 0x00000001
#endif

_Noreturn static void die(const char *what)
{
	perror(what);
	exit(1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void block(int sig)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		die("sigprocmask");
}

static int creator_fd(int sig, int kind)
{
	sigset_t set;
	int fd;

	sigemptyset(&set);
	sigaddset(&set, sig);
	fd = signalfd(-1, &set, kind | SFD_NONBLOCK | SFD_CLOEXEC);
	if (fd < 0)
		die("signalfd");
	return fd;
}

static void send_fd(int sock, int fd)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	struct iovec iov = { .iov_base = "x", .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = u.buf, .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	if (sendmsg(sock, &msg, 0) != 1)
		die("sendmsg");
}

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
	int fd;

	if (recvmsg(sock, &msg, 0) != 1 || !CMSG_FIRSTHDR(&msg))
		die("recvmsg");
	memcpy(&fd, CMSG_DATA(CMSG_FIRSTHDR(&msg)), sizeof(int));
	return fd;
}

/* Records a descriptor holds: read them all (nonblocking) up to EOF. */
static long drain(int fd)
{
	struct signalfd_siginfo si[64];
	long n = 0;
	ssize_t r;

	while ((r = read(fd, si, sizeof(si))) > 0)
		n += r / sizeof(si[0]);
	return n;
}

/* A child that sigqueue()s @sig to @pid for five seconds or until killed. */
static pid_t flooder(pid_t pid, int sig)
{
	double end = now() + 5;
	pid_t f = fork();
	int i;

	if (f < 0)
		die("fork");
	if (f == 0) {
		while (now() < end)
			for (i = 0; i < 1000; i++)
				sigqueue(pid, sig, (union sigval){ 0 });
		_exit(0);
	}
	return f;
}

static void stop(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static int ready_pipe[2], exit_pipe[2];
static int thread_fd;

static void *creator_thread(void *p)
{
	char c;

	(void)p;
	thread_fd = creator_fd(SIGRTMIN, SFD_CREATOR);
	if (write(ready_pipe[1], "x", 1) != 1 || read(exit_pipe[0], &c, 1) != 1)
		die("pipe");
	return NULL;
}

static void exit_flood(void)
{
	struct timespec fill = { 0, 300000000 };
	double t0, t1;
	pthread_t t;
	pid_t f, child;
	int sv[2], fd, status;
	sigset_t rt;
	char c;

	/* A creator thread leaves; the main thread lives on. */
	block(SIGRTMIN);
	if (pipe(ready_pipe) || pipe(exit_pipe) || pthread_create(&t, NULL, creator_thread, NULL))
		die("thread");
	if (read(ready_pipe[0], &c, 1) != 1)
		die("pipe");
	f = flooder(getpid(), SIGRTMIN);
	nanosleep(&fill, NULL);
	t0 = now();
	if (write(exit_pipe[1], "x", 1) != 1)
		die("pipe");
	pthread_join(t, NULL);
	t1 = now();
	stop(f);
	printf("exit-flood thread: creator thread's exit took %.3f s under a flood; descriptor held %ld records\n",
	       t1 - t0, drain(thread_fd));
	close(thread_fd);
	/* The flood stays with the process: read it, freeing its charge. */
	sigemptyset(&rt);
	sigaddset(&rt, SIGRTMIN);
	while (sigtimedwait(&rt, NULL, &(struct timespec){ 0 }) > 0)
		;

	/* A creator process leaves (the whole process). */
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) || pipe(exit_pipe))
		die("socketpair");
	child = fork();
	if (child == 0) {
		send_fd(sv[1], creator_fd(SIGRTMIN, SFD_CREATOR));
		if (read(exit_pipe[0], &c, 1) != 1)
			_exit(1);
		_exit(0);
	}
	fd = recv_fd(sv[0]);
	f = flooder(child, SIGRTMIN);
	nanosleep(&fill, NULL);
	t0 = now();
	if (write(exit_pipe[1], "x", 1) != 1)
		die("pipe");
	waitpid(child, &status, 0);
	t1 = now();
	stop(f);
	printf("exit-flood process: creator process's exit took %.3f s under a flood; descriptor held %ld records\n",
	       t1 - t0, drain(fd));
	close(fd);
}

static void rlimit_escape(void)
{
	struct rlimit rl = { 1000, 1000 };
	int sv[2], fds[100], i, status;
	long held = 0, n;
	pid_t child;

	if (setrlimit(RLIMIT_SIGPENDING, &rl) || socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		die("setup");
	block(SIGRTMIN);
	for (i = 0; i < 100; i++) {
		child = fork();
		if (child == 0) {
			int fd = creator_fd(SIGRTMIN, SFD_CREATOR);

			while (sigqueue(getpid(), SIGRTMIN, (union sigval){ 0 }) == 0)
				;
			send_fd(sv[1], fd);
			_exit(0);
		}
		fds[i] = recv_fd(sv[0]);
		waitpid(child, &status, 0);
	}
	for (i = 0; i < 100; i++) {
		n = drain(fds[i]);
		held += n;
		close(fds[i]);
	}
	printf("rlimit: 100 dead creators left %ld records with RLIMIT_SIGPENDING %lu\n",
	       held, (unsigned long)rl.rlim_cur);
}

static long slab_kb(void)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		die("/proc/meminfo");
	while (fgets(line, sizeof(line), f))
		sscanf(line, "Slab: %ld kB", &kb);
	fclose(f);
	return kb;
}

/* Slab bytes per reaped creator whose descriptor of @kind is still held. */
static double dead_bytes(int kind)
{
	enum { N = 1000 };
	static int fds[N];
	int sv[2], i, status;
	long before, after;
	pid_t child;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		die("socketpair");
	before = slab_kb();
	for (i = 0; i < N; i++) {
		child = fork();
		if (child == 0) {
			send_fd(sv[1], creator_fd(SIGUSR1, kind));
			_exit(0);
		}
		fds[i] = recv_fd(sv[0]);
		waitpid(child, &status, 0);
	}
	/* Let RCU free what the reaped tasks left. */
	for (i = 0; i < 20; i++)
		usleep(50000);
	after = slab_kb();
	for (i = 0; i < N; i++)
		close(fds[i]);
	close(sv[0]);
	close(sv[1]);
	return (after - before) * 1024.0 / N;
}

static void dead(void)
{
	struct rlimit rl = { 4096, 4096 };

	setrlimit(RLIMIT_NOFILE, &rl);
	dead_bytes(0); /* warm the caches */
	printf("dead: slab kept per reaped creator, descriptor held: plain signalfd %.0f bytes, SFD_CREATOR %.0f bytes\n",
	       dead_bytes(0), dead_bytes(SFD_CREATOR));
}

/* Seconds per kill()+sigtimedwait() of SIGUSR1 with @n SFD_CREATOR fds. */
static double per_signal(int n)
{
	enum { ROUNDS = 200 };
	struct timespec zero = { 0, 0 };
	sigset_t usr1;
	int *fds = calloc(n ? n : 1, sizeof(int)), i;
	double t0, t1;

	for (i = 0; i < n; i++)
		fds[i] = creator_fd(SIGUSR2, SFD_CREATOR);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	t0 = now();
	for (i = 0; i < ROUNDS; i++) {
		kill(getpid(), SIGUSR1);
		if (sigtimedwait(&usr1, NULL, &zero) != SIGUSR1)
			die("sigtimedwait");
	}
	t1 = now();
	for (i = 0; i < n; i++)
		close(fds[i]);
	free(fds);
	return (t1 - t0) / ROUNDS;
}

static void fanout(void)
{
	struct rlimit rl = { 10100, 10100 };
	double zero, many;

	if (setrlimit(RLIMIT_NOFILE, &rl))
		die("RLIMIT_NOFILE");
	block(SIGUSR1);
	block(SIGUSR2);
	per_signal(0); /* warm up */
	zero = per_signal(0);
	many = per_signal(10000);
	printf("fanout: one signal costs %.1f us with no descriptor, %.1f us with 10,000 SFD_CREATOR descriptors\n",
	       zero * 1e6, many * 1e6);
}

int main(int argc, char **argv)
{
	int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 1; i < argc || argc == 1; i++) {
		const char *what = argc == 1 ? "all" : argv[i];
		int all = !strcmp(what, "all");

		if (all || !strcmp(what, "exit-flood"))
			exit_flood();
		if (all || !strcmp(what, "rlimit"))
			rlimit_escape();
		if (all || !strcmp(what, "dead"))
			dead();
		if (all || !strcmp(what, "fanout"))
			fanout();
		if (argc == 1)
			break;
	}
	return 0;
}
