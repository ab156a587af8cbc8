/* SPDX-License-Identifier: MIT */
/* What a reader other than the creator may not take, and SIGCHLD.
 * Pending in the creator: a posix-timer signal, SIGTSTP, SIGCHLD from an
 * exited child, SIGUSR1. A reader in another process takes only SIGCHLD
 * (which reaps nothing: the child stays a zombie of the creator) and
 * SIGUSR1; another thread of the creator's process may take SIGTSTP too,
 * but not the timer signal; the creator thread itself takes the timer
 * signal, with its timer id. */
#include <pthread.h>
#include <time.h>

#include "kmod_util.h"

#define TIMERSIG (SIGRTMIN + 3)

static int fd;

static void *sibling(void *arg)
{
	struct sigfd_siginfo r;
	(void)arg;
	CHECK(queued_bytes(fd) == 128);
	r = read_one(fd);
	CHECK(r.ssi_signo == SIGTSTP);
	CHECK(read(fd, &r, sizeof r) == -1 && errno == EAGAIN);
	return NULL;
}

int main(void)
{
	sigset_t mask;
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = TIMERSIG,
				.sigev_value.sival_int = 77 };
	struct itimerspec its = { .it_value.tv_nsec = 1000000 };
	timer_t timer;
	pid_t zombie, reader;
	pthread_t t;
	int status;

	sigemptyset(&mask);
	sigaddset(&mask, TIMERSIG);
	sigaddset(&mask, SIGTSTP);
	sigaddset(&mask, SIGCHLD);
	sigaddset(&mask, SIGUSR1);
	block_only(&mask);
	fd = sigfd(&mask, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(fd >= 0);
	assert_kernel_fd(fd);

	CHECK(timer_create(CLOCK_MONOTONIC, &sev, &timer) == 0);
	CHECK(timer_settime(timer, 0, &its, NULL) == 0);
	WAIT_UNTIL(pending_has(TIMERSIG));
	CHECK(kill(getpid(), SIGTSTP) == 0);
	zombie = fork();
	CHECK(zombie >= 0);
	if (zombie == 0)
		_exit(7);
	WAIT_UNTIL(pending_has(SIGCHLD));
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(queued_bytes(fd) == 4 * 128);

	reader = fork();
	CHECK(reader >= 0);
	if (reader == 0) {
		struct sigfd_siginfo r[8];
		CHECK(queued_bytes(fd) == 2 * 128);
		CHECK(read(fd, r, sizeof r) == 2 * 128);
		CHECK(r[0].ssi_signo == SIGUSR1);
		CHECK(r[1].ssi_signo == SIGCHLD && r[1].ssi_code == CLD_EXITED);
		CHECK(r[1].ssi_pid == (uint32_t)zombie && r[1].ssi_status == 7);
		struct pollfd p = { .fd = fd, .events = POLLIN };
		CHECK(poll(&p, 1, 0) == 0);
		_exit(0);
	}
	CHECK(waitpid(reader, &status, 0) == reader && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(waitpid(zombie, &status, WNOHANG) == zombie); /* reading it reaped nothing */
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 7);
	/* The reader's own SIGCHLD (it exited) is ours now: drop it. */
	siginfo_t si;
	struct timespec zero = { 0, 0 };
	sigset_t chld = set_of(SIGCHLD);
	while (sigtimedwait(&chld, &si, &zero) > 0)
		;

	CHECK(pthread_create(&t, NULL, sibling, NULL) == 0);
	CHECK(pthread_join(t, NULL) == 0);

	struct sigfd_siginfo r = read_one(fd);
	CHECK(r.ssi_signo == (uint32_t)TIMERSIG && r.ssi_code == SI_TIMER);
	CHECK(r.ssi_int == 77 && r.ssi_overrun == 0);
	CHECK(read(fd, &r, sizeof r) == -1 && errno == EAGAIN);
	CHECK(timer_delete(timer) == 0);
	CHECK(close(fd) == 0);
	return 0;
}
