/* SPDX-License-Identifier: MIT */
/* A reader other than the creator is refused a signal only when the
 * instance a read would take is one it may not have. dequeue_signal()
 * takes from the creator thread's own queue before its process's, so a
 * posix-timer signal waiting in the process's queue does not stand in the
 * way of an instance of the same signal in the thread's own queue: that
 * one is read, and the timer's is refused after it. The module judged
 * each queue alone and refused both: the reader got EAGAIN while a record
 * it may take was there (issue 28's review). The creator then reads the
 * timer's record itself. */
#include <sys/syscall.h>
#include <time.h>

#include "kmod_util.h"

#define TIMERSIG (SIGRTMIN + 3)

int main(void)
{
	sigset_t mask = set_of(TIMERSIG);
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = TIMERSIG,
				.sigev_value.sival_int = 77 };
	struct itimerspec its = { .it_value.tv_nsec = 1000000 };
	siginfo_t own = { .si_signo = TIMERSIG, .si_code = SI_QUEUE };
	struct sigfd_siginfo r;
	timer_t timer;
	pid_t reader;
	int fd;

	block_only(&mask);
	fd = sigfd(&mask, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(fd >= 0);
	assert_kernel_fd(fd);
	CHECK(timer_create(CLOCK_MONOTONIC, &sev, &timer) == 0);
	CHECK(timer_settime(timer, 0, &its, NULL) == 0);
	WAIT_UNTIL(pending_has(TIMERSIG));
	own.si_pid = getpid();
	own.si_uid = getuid();
	own.si_value.sival_int = 5;
	CHECK(syscall(SYS_rt_tgsigqueueinfo, getpid(), syscall(SYS_gettid), TIMERSIG, &own) == 0);

	reader = fork();
	CHECK(reader >= 0);
	if (reader == 0) {
		errno = 0;
		if (read(fd, &r, sizeof r) != (ssize_t)sizeof r) {
			fprintf(stderr, "reader: read: %s\n", strerror(errno));
			_exit(1);
		}
		CHECK(r.ssi_signo == (uint32_t)TIMERSIG && r.ssi_code == SI_QUEUE && r.ssi_int == 5);
		CHECK(read(fd, &r, sizeof r) == -1 && errno == EAGAIN);
		_exit(0);
	}
	reap_ok(reader);

	r = read_one(fd);
	CHECK(r.ssi_signo == (uint32_t)TIMERSIG && r.ssi_code == SI_TIMER && r.ssi_int == 77);
	CHECK(read(fd, &r, sizeof r) == -1 && errno == EAGAIN);
	CHECK(timer_delete(timer) == 0);
	CHECK(close(fd) == 0);
	return 0;
}
