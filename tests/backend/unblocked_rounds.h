/* SPDX-License-Identifier: MIT */
/* The rounds of the tests that check that a signal some live thread leaves
 * unblocked is never taken by a share fd (sigfd(3), "Signals the program
 * leaves unblocked"): 1,000 rounds, or fewer when a round is slow (valgrind,
 * the sanitizers, a loaded machine), bounded by a time budget so that the
 * harness's limit is never reached. The count run is printed. */
#ifndef SIGFD_TEST_UNBLOCKED_ROUNDS_H
#define SIGFD_TEST_UNBLOCKED_ROUNDS_H

#include <pthread.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <time.h>

#include "share_util.h"

#define UNBLOCKED_ROUNDS 1000
/* Seconds; less under the sanitizers and valgrind, where CI runs the suite
 * again and a round costs ten times as much. */
#define UNBLOCKED_BUDGET_S (UNDER_ASAN || UNDER_TSAN || under_valgrind() ? 8 : 20)
/* At least this many rounds, whatever the time: fewer would prove little. */
#define UNBLOCKED_MIN_ROUNDS 25

/* The count of signals read from a descriptor that a thread left
 * unblocked, as the test must judge it: under valgrind, which keeps every
 * signal blocked in the kernel outside system calls and delivers them
 * itself, /proc shows a thread that is between two system calls blocking
 * them all (sigfd(3), BUGS): a stolen one is an expected failure there. */
static inline int stolen_counted(int stolen)
{
	if (stolen > 0 && under_valgrind()) {
		printf("XFAIL %d taken while valgrind had the thread's signals blocked in the kernel\n",
		       stolen);
		return 0;
	}
	return stolen;
}

static inline double unblocked_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Should round i (from 0) run, the test having started at t0? */
static inline bool unblocked_round(int i, double t0)
{
	return i < UNBLOCKED_ROUNDS &&
	       (i < UNBLOCKED_MIN_ROUNDS || unblocked_now() - t0 < UNBLOCKED_BUDGET_S);
}

/* Rounds of round() (1 when the signal was read from the descriptor, 0
 * when the program got it), as many as unblocked_round() allows; the count
 * is printed after what. Returns the number read. */
static inline int unblocked_rounds(int (*round)(void), const char *what)
{
	double t0 = unblocked_now();
	int rounds = 0, stolen = 0;

	while (unblocked_round(rounds, t0)) {
		stolen += round();
		rounds++;
	}
	printf("%d of %d %s\n", stolen, rounds, what);
	return stolen;
}

/* The default action for sig (a shell starts background jobs with SIGINT
 * and SIGQUIT ignored), and no core file in the working directory. */
static inline void default_action(int sig)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	struct rlimit none = { 0, 0 };

	CHECK(sigaction(sig, &dfl, NULL) == 0);
	CHECK(setrlimit(RLIMIT_CORE, &none) == 0);
}

/* The pipe a test's handler writes a byte to for each signal it gets
 * (handled_by_handler), made with pipe() by the test. */
static inline int *handled_pipe(void)
{
	static int p[2] = { -1, -1 };

	return p;
}

static inline void handled_by_handler(int sig)
{
	int saved = errno;

	(void)sig;
	(void)!write(handled_pipe()[1], "h", 1);
	errno = saved;
}

/* Where the instance of sig just sent went: 1 when it was read from the
 * descriptor fd, 0 when the handler got it. */
static inline int taken_or_handled(int fd, int sig)
{
	struct pollfd p[2] = { { .fd = fd, .events = POLLIN },
			       { .fd = handled_pipe()[0], .events = POLLIN } };
	char c;

	while (poll(p, 2, -1) < 0)
		CHECK(errno == EINTR);
	if (p[0].revents & POLLIN) {
		CHECK(read_one(fd).ssi_signo == (uint32_t)sig);
		return 1;
	}
	CHECK(read(handled_pipe()[0], &c, 1) == 1);
	return 0;
}

/* A thread that unblocks sig, says so on ready, and sleeps until the
 * process ends. */
struct unblocker {
	int sig;
	int ready;
};

static void *unblocker_run(void *arg)
{
	struct unblocker *u = arg;
	sigset_t set = set_of(u->sig);

	CHECK(pthread_sigmask(SIG_UNBLOCK, &set, NULL) == 0);
	put_byte(u->ready);
	for (;;)
		pause();
	return NULL;
}

static inline void start_unblocker(struct unblocker *u)
{
	pthread_t t;

	CHECK(pthread_create(&t, NULL, unblocker_run, u) == 0);
	CHECK(pthread_detach(t) == 0);
}

/* Wait for child, which must die of sig; 3 from it means it read the signal
 * from its share fd. Returns 1 when it was stolen so, 0 when it died of
 * sig; anything else fails the test. */
static inline int died_of(pid_t child, int sig)
{
	int status;

	CHECK(waitpid(child, &status, 0) == child);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 3)
		return 1;
	if (!WIFSIGNALED(status) || WTERMSIG(status) != sig)
		fprintf(stderr, "child: status %#x, not killed by signal %d\n", status, sig);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == sig);
	return 0;
}

/* In a test child: wait on fd (a share fd) for at most ms; a record of sig
 * read means the descriptor took it: exit 3. Returns when none came. */
static inline void exit_if_read(int fd, int sig, int ms)
{
	struct sigfd_siginfo r;

	if (!(poll_events(fd, POLLIN, ms) & POLLIN))
		return;
	if (read(fd, &r, sizeof r) == (ssize_t)sizeof r && (int)r.ssi_signo == sig)
		_exit(3);
}

#endif
