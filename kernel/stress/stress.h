/* SPDX-License-Identifier: MIT */
/* What the race-stress programs share (docs/testing.md, "Debug
 * kernels"): a time budget in seconds from argv[1], share-mode descriptors
 * that must be the kernel's (module or SFD_CREATOR), a flooding sender, and
 * a bound on how long a process may take to end once told to. Their main
 * verdict is the guest kernel's (KASAN, lockdep, debug objects: make
 * kdebug-check); each also fails on a record it cannot have been sent, on
 * a reader that never gets end of file, and on an exit that does not end
 * within EXIT_BOUND_S. */
#ifndef SIGFD_STRESS_H
#define SIGFD_STRESS_H

#include <pthread.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "share_util.h"

/* A debug kernel under TCG is slow, but no exit takes this long unless
 * something keeps it in the kernel (issue 16's K-1 took the whole flood). */
#define EXIT_BOUND_S 30

static inline double stress_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static double stress_deadline;

/* What every program does first: "--exec-done" (the image the exec'ing
 * programs run) ends at once; the budget is argv[1] seconds (25 without);
 * sig is blocked; link is the socket pair descriptors come back over.
 * The mask of sig. */
static inline sigset_t stress_start(int argc, char **argv, int sig, int link[2])
{
	sigset_t mask = set_of(sig);
	int seconds = argc > 1 ? atoi(argv[1]) : 25;

	if (argc > 1 && strcmp(argv[1], "--exec-done") == 0)
		exit(0);
	CHECK(seconds > 0);
	stress_deadline = stress_now() + seconds;
	block_only(&mask);
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, link) == 0);
	return mask;
}

static inline int stress_running(void)
{
	return stress_now() < stress_deadline;
}

/* A share-mode descriptor of the kernel backend in use. */
static inline int stress_fd(const sigset_t *mask, unsigned long flags)
{
	int fd = sigfd(mask, SIGFD_SHARE | flags);

	CHECK(fd >= 0);
	if (!kernel_backend(fd)) {
		fprintf(stderr, "fd %d is not a kernel backend's (SIGFD_BACKEND?)\n", fd);
		exit(1);
	}
	return fd;
}

/* A record a reader got: one of the signals it asked for. */
static inline void stress_record_ok(const struct sigfd_siginfo *r, const sigset_t *mask)
{
	if (r->ssi_signo == 0 || r->ssi_signo >= NSIG || !sigismember(mask, (int)r->ssi_signo)) {
		fprintf(stderr, "record with signal %u, not in the mask\n", r->ssi_signo);
		exit(1);
	}
}

/* Check every record of a read's n bytes. */
static inline void stress_records_ok(const struct sigfd_siginfo *r, ssize_t n, const sigset_t *mask)
{
	CHECK(n % (ssize_t)sizeof *r == 0);
	for (ssize_t i = 0; i < n / (ssize_t)sizeof *r; i++)
		stress_record_ok(&r[i], mask);
}

/* Read fd (the only reader) to end of file, which must come within
 * EXIT_BOUND_S; every record checked. The records read. */
static inline long stress_read_eof(int fd, const sigset_t *mask, const char *what)
{
	double limit = stress_now() + EXIT_BOUND_S;
	struct sigfd_siginfo r[16];
	long records = 0;
	ssize_t n;

	for (;;) {
		if (stress_now() > limit) {
			fprintf(stderr, "%s: no end of file %d s after the creator was told to end\n",
				what, EXIT_BOUND_S);
			exit(1);
		}
		if (!(poll_events(fd, POLLIN, 100) & (POLLIN | POLLHUP)))
			continue;
		n = read(fd, r, sizeof r);
		if (n == 0)
			return records;
		if (n < 0) {
			CHECK(errno == EAGAIN);
			continue;
		}
		stress_records_ok(r, n, mask);
		records += n / (ssize_t)sizeof *r;
	}
}

/* A child queueing sig to pid as fast as it can until killed (EAGAIN: the
 * queue is at RLIMIT_SIGPENDING; ESRCH: pid is gone, so is the point). */
static inline pid_t stress_flood(pid_t pid, int sig)
{
	pid_t s = fork();

	CHECK(s >= 0);
	if (s)
		return s;
	for (int i = 0;; i++)
		if (sigqueue(pid, sig, int_val(i)) != 0) {
			if (errno == ESRCH)
				_exit(0);
			CHECK(errno == EAGAIN);
			sched_yield();
		}
}

/* Wait for pid (any status) at most EXIT_BOUND_S seconds; past that, say
 * what it is doing, kill it and fail. The status, for the caller to judge. */
static inline int stress_reap(pid_t pid, const char *what)
{
	double limit = stress_now() + EXIT_BOUND_S;
	int status;
	pid_t got;

	while ((got = waitpid(pid, &status, WNOHANG | __WALL)) == 0 && stress_now() < limit)
		poll(NULL, 0, 10);
	CHECK(got >= 0);
	if (got == 0) {
		char path[64], line[256];
		FILE *f;

		fprintf(stderr, "%s: pid %d still there %d s after it was told to end:\n", what,
			(int)pid, EXIT_BOUND_S);
		snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
		if ((f = fopen(path, "r"))) {
			while (fgets(line, sizeof line, f))
				if (!strncmp(line, "State:", 6) || !strncmp(line, "SigQ:", 5))
					fprintf(stderr, "  %s", line);
			fclose(f);
		}
		snprintf(path, sizeof path, "/proc/%d/wchan", (int)pid);
		if ((f = fopen(path, "r"))) {
			if (fgets(line, sizeof line, f))
				fprintf(stderr, "  wchan: %s\n", line);
			fclose(f);
		}
		exit(1);
	}
	return status;
}

/* A child that makes descriptors and sends them over the link, then
 * waits for a byte on its go pipe to end (stress_creator_end). */
struct stress_creator {
	pid_t pid;
	int go[2];
};

static inline void stress_fork(struct stress_creator *c, void (*body)(int link_fd, int go_fd, int arg),
			       int link_fd, int arg)
{
	CHECK(pipe2(c->go, O_CLOEXEC) == 0);
	c->pid = fork();
	CHECK(c->pid >= 0);
	if (c->pid == 0) {
		body(link_fd, c->go[0], arg);
		_exit(0);
	}
}

static sigset_t stress_creator_mask;

static void stress_plain_creator(int link_fd, int go_fd, int flags)
{
	send_fd(link_fd, stress_fd(&stress_creator_mask, (unsigned long)flags));
	get_byte(go_fd);
}

/* The plain creator: one descriptor for mask, the one returned. */
static inline int stress_creator_start(struct stress_creator *c, const int link[2],
				       const sigset_t *mask)
{
	stress_creator_mask = *mask;
	stress_fork(c, stress_plain_creator, link[1], 0);
	return recv_fd(link[0]);
}

/* End the creator, by SIGKILL or by telling it, and reap it. */
static inline void stress_creator_end(struct stress_creator *c, int by_kill)
{
	int status;

	if (by_kill)
		CHECK(kill(c->pid, SIGKILL) == 0);
	else
		put_byte(c->go[1]);
	status = stress_reap(c->pid, "the creator");
	CHECK(by_kill ? WIFSIGNALED(status) : WIFEXITED(status));
	close_pair(c->go);
}

/* A reader thread must end (at end of file) within the bound. */
static inline void stress_join(pthread_t t, const char *what)
{
	struct timespec limit;

	clock_gettime(CLOCK_REALTIME, &limit);
	limit.tv_sec += EXIT_BOUND_S;
	if (pthread_timedjoin_np(t, NULL, &limit) != 0) {
		fprintf(stderr, "%s did not end %d s after the creator (no end of file?)\n", what,
			EXIT_BOUND_S);
		exit(1);
	}
}

/* Kill and reap a helper (a flooder) of ours. */
static inline void stress_stop(pid_t pid)
{
	kill(pid, SIGKILL);
	stress_reap(pid, "a flooding sender");
}

static inline void stress_burn(int ms)
{
	double until = stress_now() + ms / 1000.0;

	while (stress_now() < until)
		;
}

/* The rounds done and the records read, for the guest log. */
static inline void stress_done(const char *name, long rounds, long records)
{
	printf("%s: %ld rounds, %ld records read\n", name, rounds, records);
	CHECK(rounds > 0);
}

#endif
