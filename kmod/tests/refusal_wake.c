/* SPDX-License-Identifier: MIT */
/* A refused signal that stops being refused wakes the waiters, though no
 * signal is queued then. A posix-timer signal heads the queue with a
 * sigqueue()d instance of the same signal behind it: a reader in another
 * process may not take the timer's, so nothing is readable; its poll()
 * returns (well inside its 20 s) once the creator takes the timer's
 * instance itself. And a pending SIGALRM while a periodic ITIMER_REAL is
 * armed: a blocked read() in another process returns it once the creator
 * disarms the timer. */
#include <sys/time.h>
#include <time.h>

#include "kmod_util.h"

#define TIMERSIG (SIGRTMIN + 2)

static void timer_then_queued(void)
{
	sigset_t mask = set_of(TIMERSIG);
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = TIMERSIG,
				.sigev_value.sival_int = 77 };
	struct itimerspec once = { .it_value.tv_nsec = 1000000 };
	struct timespec zero = { 0, 0 };
	int ready[2], fd;
	timer_t timer;
	siginfo_t si;
	pid_t reader;

	block_only(&mask);
	fd = raw_create(bit(TIMERSIG), SIGFD_KF_NONBLOCK);
	CHECK(fd >= 0);
	CHECK(timer_create(CLOCK_MONOTONIC, &sev, &timer) == 0);
	CHECK(timer_settime(timer, 0, &once, NULL) == 0);
	WAIT_UNTIL(pending_has(TIMERSIG));
	CHECK(sigqueue(getpid(), TIMERSIG, int_val(5)) == 0);
	CHECK(pipe(ready) == 0);
	reader = fork();
	CHECK(reader >= 0);
	if (reader == 0) {
		struct sigfd_siginfo r;
		short ready_events;

		CHECK(poll_events(fd, POLLIN, 0) == 0); /* the timer's instance is held */
		put_byte(ready[1]);
		ready_events = poll_events(fd, POLLIN, 20000);
		if (ready_events != POLLIN) /* 0: timed out; POLLHUP: creator gone */
			fprintf(stderr, "poll: revents %#x\n", (unsigned)ready_events);
		CHECK(ready_events == POLLIN);
		r = read_one(fd);
		CHECK(r.ssi_signo == (uint32_t)TIMERSIG && r.ssi_code == SI_QUEUE && r.ssi_int == 5);
		CHECK(read(fd, &r, sizeof r) == -1 && errno == EAGAIN);
		_exit(0);
	}
	get_byte(ready[0]);
	WAIT_ASLEEP(reader);
	CHECK(sigtimedwait(&mask, &si, &zero) == TIMERSIG);
	CHECK(si.si_code == SI_TIMER && si.si_value.sival_int == 77);
	reap_ok(reader);
	CHECK(timer_delete(timer) == 0);
	CHECK(close(fd) == 0 && close(ready[0]) == 0 && close(ready[1]) == 0);
}

static void itimer_disarmed(void)
{
	sigset_t mask = set_of(SIGALRM);
	struct itimerval periodic = { .it_interval.tv_sec = 1, .it_value.tv_usec = 1000 }, off = { 0 };
	int ready[2], done[2], fd;
	pid_t reader;

	block_only(&mask);
	fd = raw_create(bit(SIGALRM), 0);
	CHECK(fd >= 0);
	CHECK(setitimer(ITIMER_REAL, &periodic, NULL) == 0);
	WAIT_UNTIL(pending_has(SIGALRM));
	CHECK(pipe(ready) == 0 && pipe(done) == 0);
	reader = fork();
	CHECK(reader >= 0);
	if (reader == 0) {
		CHECK(queued_bytes(fd) == 0); /* refused while the timer is periodic */
		put_byte(ready[1]);
		CHECK(read_one(fd).ssi_signo == SIGALRM);
		put_byte(done[1]);
		_exit(0);
	}
	get_byte(ready[0]);
	WAIT_ASLEEP(reader);
	CHECK(setitimer(ITIMER_REAL, &off, NULL) == 0);
	if (poll_events(done[0], POLLIN, 20000) != POLLIN) {
		fprintf(stderr, "the blocked read was not woken\n");
		kill(reader, SIGKILL);
		exit(1);
	}
	reap_ok(reader);
	CHECK(!pending_has(SIGALRM));
	CHECK(close(fd) == 0 && close(ready[0]) == 0 && close(ready[1]) == 0);
	CHECK(close(done[0]) == 0 && close(done[1]) == 0);
}

int main(void)
{
	int fds_before = fd_count();

	timer_then_queued();
	itimer_disarmed();
	CHECK(fd_count() == fds_before);
	return 0;
}
