/* SPDX-License-Identifier: MIT */
/* Group exit against posix timers and ITIMER_REAL (issue 16's M-1 shape):
 * a process whose threads each hold a descriptor for a blocked RT signal
 * burn CPU while a process-CPU-time timer and a CLOCK_MONOTONIC timer send
 * that signal and a periodic ITIMER_REAL sends SIGALRM; the group ends by
 * _exit() from a thread or by SIGKILL from the parent, in a loop. The
 * parent reads one of the descriptors while the group runs, or (every
 * other pair of rounds) only once it is reaped, so that timer signals are
 * still pending when the threads exit. The parent must get end of file,
 * and the group must end within the bound. Usage: exit_timers [seconds] */
#include <sys/time.h>

#include "stress.h"

#define THREADS 4
#define TIMERS 4 /* of each clock: each has its own preallocated sigqueue */

static sigset_t mask;
static int link_fd;

static void *worker(void *arg)
{
	int fd = stress_fd(&mask, 0);

	(void)arg;
	(void)fd; /* held until the group ends */
	for (;;)
		stress_burn(1);
	return NULL;
}

static void arm(clockid_t clock, long ns)
{
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGRTMIN + 2 };
	struct itimerspec its = { .it_interval.tv_nsec = ns, .it_value.tv_nsec = ns };
	timer_t t;

	CHECK(timer_create(clock, &ev, &t) == 0);
	CHECK(timer_settime(t, 0, &its, NULL) == 0);
}

/* The group: threads with descriptors, timers, then the end (by_exit:
 * _exit() from a thread after ms of burning; else SIGKILL will come). */
static void group(int by_exit, int ms)
{
	struct itimerval it = { .it_interval.tv_usec = 500, .it_value.tv_usec = 500 };
	pthread_t t;

	for (int i = 0; i < THREADS; i++)
		CHECK(pthread_create(&t, NULL, worker, NULL) == 0);
	for (int i = 0; i < TIMERS; i++) {
		arm(CLOCK_PROCESS_CPUTIME_ID, 100000 + 50000 * i);
		arm(CLOCK_MONOTONIC, 100000 + 50000 * i);
	}
	CHECK(setitimer(ITIMER_REAL, &it, NULL) == 0);
	send_fd(link_fd, stress_fd(&mask, SIGFD_NONBLOCK));
	stress_burn(ms);
	if (by_exit)
		_exit(0);
	for (;;)
		stress_burn(1);
}

int main(int argc, char **argv)
{
	long rounds = 0, records = 0;
	int link[2];

	mask = stress_start(argc, argv, SIGRTMIN + 2, link);
	sigaddset(&mask, SIGALRM);
	block_only(&mask);
	for (; stress_running(); rounds++) {
		int by_exit = rounds % 2, read_late = rounds / 2 % 2, ms = 5 + rounds % 7 * 5, fd, status;
		struct sigfd_siginfo r[16];
		double kill_at;
		ssize_t n;
		pid_t g = fork();

		CHECK(g >= 0);
		if (g == 0) {
			link_fd = link[1];
			group(by_exit, ms);
		}
		fd = recv_fd(link[0]);
		if (!by_exit) {
			/* Read while the group runs (or not), then kill it. */
			kill_at = stress_now() + ms / 1000.0;
			while (read_late && stress_now() < kill_at)
				poll(NULL, 0, 1);
			while (stress_now() < kill_at) {
				n = read(fd, r, sizeof r);
				if (n < 0)
					CHECK(errno == EAGAIN);
				else
					stress_records_ok(r, n, &mask);
				records += n > 0 ? n / (ssize_t)sizeof *r : 0;
				poll_events(fd, POLLIN, 1);
			}
			CHECK(kill(g, SIGKILL) == 0);
		}
		if (read_late)
			status = stress_reap(g, "the timer group");
		records += stress_read_eof(fd, &mask, "exit_timers");
		if (!read_late)
			status = stress_reap(g, "the timer group");
		CHECK(by_exit ? WIFEXITED(status) : WIFSIGNALED(status));
		CHECK(close(fd) == 0);
	}
	close_pair(link);
	stress_done("exit_timers", rounds, records);
	return 0;
}
