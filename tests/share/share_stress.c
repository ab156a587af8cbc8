/* SPDX-License-Identifier: MIT */
/* Share mode under load: three threads open, change and close share fds of
 * their own (never for SIGRTMIN; what they would get is not checked: a
 * child forked meanwhile may hold a copy of one, which then stays open and
 * first in line for its signals), one thread forks 2,000 children (some
 * make share fds of their own and use them), while another process floods us with
 * SIGRTMIN values that a child reads through the one share fd for them:
 * every value arrives once and in order, nothing hangs (the runner's time
 * limit), and no fd or thread is left at the end. SIGFD_STRESS_FORKS sets
 * the number of forks (the soak runs it long). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

#include "share_util.h"

/* A fork under a sanitizer or valgrind costs 50-100 times more (the shadow
 * memory): the sanitizers fork 200 times, the others 2,000. valgrind runs
 * one thread at a time, so it meets few of the races, and looks for memory
 * errors, which 100 forks and 4,000 values reach as well (25 s alone with
 * 200 and 20,000). */
#define SANITIZED (UNDER_ASAN || UNDER_TSAN)
#define COUNT (under_valgrind() ? 4000 : 20000)

static atomic_bool stop;
static sigset_t churn_mask;

static void *churn(void *arg)
{
	int k = *(int *)arg;
	sigset_t own = set_of(SIGRTMIN + 1 + k), usr1 = set_of(SIGUSR1);

	while (!atomic_load(&stop)) {
		int fd = sigfd(&own, SIGFD_SHARE | SIGFD_NONBLOCK);
		CHECK(fd >= 0);
		CHECK(sigfd_setmask(fd, &usr1) == 0);
		CHECK(sigfd_setmask(fd, &own) == 0);
		CHECK(close(fd) == 0);
	}
	return NULL;
}

static void *forker(void *arg)
{
	int forks = *(int *)arg;

	for (int i = 0; i < forks; i++) {
		pid_t child = fork();
		CHECK(child >= 0);
		if (child == 0) {
			if (i % 50 == 0 && !UNDER_TSAN && !UNDER_ASAN) { /* see check.h */
				int own = sigfd(&churn_mask, SIGFD_SHARE);
				CHECK(own >= 0);
				CHECK(kill(getpid(), SIGUSR1) == 0);
				CHECK(read_one(own).ssi_signo == SIGUSR1);
				exit(0); /* through the library's exit code */
			}
			_exit(0); /* no sanitizer's exit-time scan in each of 2,000 */
		}
		reap_ok(child);
	}
	return NULL;
}

int main(void)
{
	const char *forks_env = getenv("SIGFD_STRESS_FORKS");
	int forks = forks_env ? atoi(forks_env) : SANITIZED ? 200 : under_valgrind() ? 100 : 2000;
	sigset_t all = set_of(SIGRTMIN), rt = set_of(SIGRTMIN);
	pid_t me = getpid();
	int ids[3] = { 0, 1, 2 };
	pthread_t churners[3], fork_thread;

	sigemptyset(&churn_mask);
	sigaddset(&churn_mask, SIGUSR1);
	sigaddset(&all, SIGUSR1);
	for (int k = 0; k < 3; k++)
		sigaddset(&all, SIGRTMIN + 1 + k);
	block_only(&all);
	int fd = sigfd(&rt, SIGFD_SHARE);
	CHECK(fd >= 0);
	pid_t reader = fork();
	CHECK(reader >= 0);
	if (reader == 0) {
		for (int i = 0; i < COUNT; i++) {
			struct sigfd_siginfo r = read_one(fd);
			CHECK(r.ssi_signo == (uint32_t)SIGRTMIN && r.ssi_int == i);
		}
		_exit(0);
	}
	CHECK(close(fd) == 0); /* the reader's copy keeps it open */
	pid_t sender = fork();
	CHECK(sender >= 0);
	if (sender == 0) {
		for (int i = 0; i < COUNT; i++)
			while (sigqueue(me, SIGRTMIN, int_val(i)) < 0)
				CHECK(errno == EAGAIN);
		_exit(0);
	}
	for (int k = 0; k < 3; k++)
		CHECK(pthread_create(&churners[k], NULL, churn, &ids[k]) == 0);
	CHECK(pthread_create(&fork_thread, NULL, forker, &forks) == 0);
	CHECK(pthread_join(fork_thread, NULL) == 0);
	reap_ok(sender);
	reap_ok(reader);
	atomic_store(&stop, true);
	for (int k = 0; k < 3; k++)
		CHECK(pthread_join(churners[k], NULL) == 0);
	WAIT_UNTIL(forwarders() == 0);
	return 0;
}
