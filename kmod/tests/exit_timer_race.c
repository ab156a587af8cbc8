/* SPDX-License-Identifier: MIT */
/* Issue 16, M-1: a whole thread group ends while posix timers keep
 * signalling it and each of its threads is a creator. Every thread holds a
 * descriptor for SIGRTMIN (blocked) and burns CPU; a process-CPU-time and a
 * CLOCK_MONOTONIC timer, both periodic, send SIGRTMIN; the group ends by
 * _exit() or by SIGKILL from the parent, round after round. The exit probes
 * of the threads run while the last thread deletes the timers
 * (exit_itimers()): a probe that took a timer signal re-armed a timer being
 * deleted, which then fired into freed memory (BUG_ON in send_sigqueue(),
 * a panic: the guest boots with oops=panic). What this checks besides the
 * kernel surviving: each round ends as it was told to, and the descriptor
 * the parent holds yields only timer records, then end of file. */
#include <pthread.h>
#include <time.h>

#include "kmod_util.h"

#define THREADS 2
#define TIMERS 2	/* of each clock */
#define CPU_US 1000	/* their periods */
#define MONO_US 200
#define SECONDS 20	/* of rounds, unless argv[1] says otherwise */

static int burn_until_cpu_ms(long ms)
{
	struct timespec t;
	volatile unsigned long spin = 0;

	do {
		for (int i = 0; i < 10000; i++)
			spin++;
		CHECK(clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) == 0);
	} while (t.tv_sec * 1000 + t.tv_nsec / 1000000 < ms);
	return (int)(spin & 1);
}

static void *burner(void *arg)
{
	int fd = raw_create(bit(SIGRTMIN), 0);

	CHECK(fd >= 0);
	put_byte(*(int *)arg);
	for (;;)
		burn_until_cpu_ms(1000000);
	return NULL;
}

static timer_t periodic_timer(clockid_t clock, long interval_us)
{
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGRTMIN };
	struct itimerspec its = { .it_interval.tv_nsec = interval_us * 1000,
				  .it_value.tv_nsec = interval_us * 1000 };
	timer_t t;

	CHECK(timer_create(clock, &ev, &t) == 0);
	CHECK(timer_settime(t, 0, &its, NULL) == 0);
	return t;
}

/* The child: descriptors in every thread, both timers, CPU burnt until a
 * timer signal is pending; then it tells the parent, and ends itself by
 * _exit() unless the parent is to kill it. */
static void group(int link, int ready, int self_exit)
{
	pthread_t t[THREADS - 1];
	int fd = raw_create(bit(SIGRTMIN), 0), started[2];

	CHECK(fd >= 0);
	send_fd(link, fd);
	CHECK(pipe(started) == 0);
	for (int i = 0; i < THREADS - 1; i++)
		CHECK(pthread_create(&t[i], NULL, burner, &started[1]) == 0);
	for (int i = 0; i < THREADS - 1; i++)
		get_byte(started[0]);
	for (int i = 0; i < TIMERS; i++) {
		periodic_timer(CLOCK_PROCESS_CPUTIME_ID, CPU_US);
		periodic_timer(CLOCK_MONOTONIC, MONO_US);
	}
	while (!pending_has(SIGRTMIN))
		burn_until_cpu_ms(1);
	put_byte(ready);
	burn_until_cpu_ms(2);
	if (self_exit)
		_exit(0);
	for (;;)
		burn_until_cpu_ms(1000000);
}

static void round_once(int self_exit)
{
	int link[2], ready[2], fd, status, got = 0;
	struct sigfd_siginfo r;
	ssize_t n;
	pid_t child;

	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, link) == 0);
	CHECK(pipe(ready) == 0);
	child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		close(ready[0]);
		group(link[1], ready[1], self_exit);
	}
	fd = recv_fd(link[0]);
	CHECK(close(ready[1]) == 0);
	get_byte(ready[0]);
	if (!self_exit)
		CHECK(kill(child, SIGKILL) == 0);
	CHECK(waitpid(child, &status, 0) == child);
	if (self_exit)
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	else
		CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	/* Whatever moved is a timer's signal (one record per timer at most). */
	while ((n = read(fd, &r, sizeof r)) > 0) {
		CHECK(n == sizeof r && r.ssi_signo == (uint32_t)SIGRTMIN && r.ssi_code == SI_TIMER);
		CHECK(++got <= 2 * TIMERS);
	}
	CHECK(n == 0);
	CHECK(poll_events(fd, POLLIN, 0) == (POLLIN | POLLHUP));
	CHECK(close(fd) == 0);
	close_pair(link);
	CHECK(close(ready[0]) == 0);
}

int main(int argc, char **argv)
{
	int fds_before = fd_count(), rounds = 0;
	long seconds = argc > 1 ? atol(argv[1]) : SECONDS;
	time_t start = time(NULL);
	sigset_t mask = set_of(SIGRTMIN);

	block_only(&mask);
	while (time(NULL) - start < seconds)
		round_once(rounds++ % 2);
	printf("exit_timer_race: %d rounds (%d by _exit, %d by SIGKILL) in %lds\n", rounds,
	       rounds / 2, (rounds + 1) / 2, (long)(time(NULL) - start));
	CHECK(fd_count() == fds_before);
	return 0;
}
