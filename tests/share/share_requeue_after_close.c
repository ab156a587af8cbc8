/* SPDX-License-Identifier: MIT */
/* Signals sent just after the last copy of a share fd was closed stay
 * pending with their origin, whichever way the race with the forwarding
 * thread goes: the thread may have taken one before it saw the close, and
 * must then put it back (kill() and SIGCHLD included: si_code >= 0). A
 * second share fd, busy with a flood, keeps the thread awake so that the
 * race goes both ways. The noise is a standard signal, which coalesces:
 * it never fills the signal queue. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "share_util.h"

/* valgrind runs one thread at a time, so it meets few of the races, and 300
 * rounds took it 27 s alone: it looks for memory errors, which 60 reach as
 * well. */
#define ROUNDS (under_valgrind() ? 60 : 300)

static atomic_bool stop;

static void *drain(void *arg)
{
	int fd = *(int *)arg;
	struct sigfd_siginfo r[32];

	while (!atomic_load(&stop))
		if (poll_events(fd, POLLIN, 50))
			CHECK(read(fd, r, sizeof r) > 0);
	return NULL;
}

static void expect(int sig, int code, pid_t pid, int value)
{
	sigset_t one = set_of(sig);
	siginfo_t si;
	struct timespec later = { 10, 0 };

	CHECK(sigtimedwait(&one, &si, &later) == sig);
	CHECK(si.si_code == code && si.si_pid == pid);
	if (code == SI_QUEUE)
		CHECK(si.si_value.sival_int == value);
	if (code == CLD_EXITED)
		CHECK(si.si_status == value);
}

int main(void)
{
	sigset_t mask = set_of(SIGUSR1), noise = set_of(SIGUSR2);
	pthread_t drainer;
	pid_t me = getpid(), flooder;
	int busy;

	sigaddset(&mask, SIGRTMIN);
	sigaddset(&mask, SIGCHLD);
	sigaddset(&mask, SIGUSR2);
	block_only(&mask);
	sigdelset(&mask, SIGUSR2);
	busy = sigfd(&noise, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(busy >= 0);
	CHECK(pthread_create(&drainer, NULL, drain, &busy) == 0);
	flooder = fork();
	CHECK(flooder >= 0);
	if (flooder == 0) {
		for (;;)
			if (kill(me, SIGUSR2) < 0)
				_exit(errno == ESRCH ? 0 : 1);
	}
	for (int i = 0; i < ROUNDS; i++) {
		int go[2];
		CHECK(pipe(go) == 0);
		/* Forked first: a child holding a copy of the share fd would keep
		 * it open, and what is written to it would die with the child. */
		pid_t child = fork();
		CHECK(child >= 0);
		if (child == 0) {
			get_byte(go[0]);
			_exit(7);
		}
		int fd = sigfd(&mask, SIGFD_SHARE);
		CHECK(fd >= 0);
		CHECK(close(fd) == 0);
		CHECK(kill(me, SIGUSR1) == 0);
		CHECK(sigqueue(me, SIGRTMIN, int_val(i)) == 0);
		put_byte(go[1]);
		close_pair(go);
		siginfo_t exited;
		CHECK(waitid(P_PID, (id_t)child, &exited, WEXITED | WNOWAIT) == 0);
		expect(SIGUSR1, SI_USER, me, 0);
		expect(SIGRTMIN, SI_QUEUE, me, i);
		expect(SIGCHLD, CLD_EXITED, child, 7);
		CHECK(waitpid(child, NULL, 0) == child);
	}
	CHECK(kill(flooder, SIGKILL) == 0);
	CHECK(waitpid(flooder, NULL, 0) == flooder);
	atomic_store(&stop, true);
	CHECK(pthread_join(drainer, NULL) == 0);
	CHECK(close(busy) == 0);
	return 0;
}
