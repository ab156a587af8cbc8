/* SPDX-License-Identifier: MIT */
/* A record the forwarding thread took but could not write goes back to the
 * process's queue with every field the kernel gave it: a POSIX timer's id,
 * overrun and value, a SIGIO-style signal's fd and band, and a fault's
 * address. sendmmsg() is wrapped (-Wl,--wrap, see tests.mk) so that the
 * thread's next write fails with EPIPE, as when the last reader has just gone: the share fd is
 * dropped and its signal taken back with sigtimedwait() here. The user-space
 * backend only: tests/backend/ is the host's alone (tests/folders). */
#include <fcntl.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>

#include "share_util.h"
#include "refused_write.h"

/* A share fd for sig whose next write fails: the signal, once taken, must
 * come back. The reader sees end of file, as the fd was dropped. */
static int share_fd_failing(int sig)
{
	sigset_t one = set_of(sig);
	int fd = sigfd(&one, SIGFD_SHARE);

	CHECK(fd >= 0);
	atomic_store(&fail_next_write, EPIPE);
	return fd;
}

static siginfo_t taken_back(int sig, int fd)
{
	sigset_t one = set_of(sig);
	struct timespec limit = { 10, 0 };
	siginfo_t si;
	char c;

	/* Taken here only once the thread has tried to write it. */
	WAIT_UNTIL(!atomic_load(&fail_next_write));
	CHECK(sigtimedwait(&one, &si, &limit) == sig);
	CHECK(read(fd, &c, 1) == 0);
	CHECK(close(fd) == 0);
	return si;
}

int main(void)
{
	int timer_sig = SIGRTMIN + 3, io_sig = SIGRTMIN + 4, fd, io[2];
	sigset_t mask = set_of(timer_sig);
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL };
	struct itimerspec soon = { .it_value = { 0, 1000 } };
	timer_t timer;
	siginfo_t si;
	int marker;

	CHECK(setenv("SIGFD_BACKEND", "user", 1) == 0);
	sigaddset(&mask, io_sig);
	sigaddset(&mask, SIGBUS);
	block_only(&mask);

	/* A timer's signal: id, overrun and value. */
	ev.sigev_signo = timer_sig;
	ev.sigev_value.sival_ptr = &marker;
	CHECK(timer_create(CLOCK_MONOTONIC, &ev, &timer) == 0);
	fd = share_fd_failing(timer_sig);
	CHECK(timer_settime(timer, 0, &soon, NULL) == 0);
	si = taken_back(timer_sig, fd);
	CHECK(si.si_code == SI_TIMER);
	CHECK(si.si_timerid == (int)(intptr_t)timer);
	CHECK(si.si_overrun == 0);
	CHECK(si.si_value.sival_ptr == &marker);
	CHECK(timer_delete(timer) == 0);

	/* A signal for I/O on a pipe (F_SETSIG): its fd and band. */
	CHECK(pipe(io) == 0);
	CHECK(fcntl(io[0], F_SETOWN, getpid()) == 0);
	CHECK(fcntl(io[0], F_SETSIG, io_sig) == 0);
	CHECK(fcntl(io[0], F_SETFL, O_ASYNC | O_NONBLOCK) == 0);
	fd = share_fd_failing(io_sig);
	CHECK(write(io[1], "x", 1) == 1);
	si = taken_back(io_sig, fd);
	CHECK(si.si_code == POLL_IN);
	CHECK(si.si_fd == io[0]);
	CHECK(si.si_band == (POLLIN | POLLRDNORM));
	close_pair(io);
	if (under_valgrind()) {
		puts("SKIPPED: the fault case (valgrind aborts on a fault signal queued with rt_sigqueueinfo()); the timer and I/O cases passed");
		return 77;
	}

	/* A fault's address: a fault is sent to a thread, but a process may
	 * queue one to itself with the fault's code. */
	siginfo_t fault = { .si_signo = SIGBUS, .si_code = BUS_ADRERR, .si_addr = &marker };
	fd = share_fd_failing(SIGBUS);
	CHECK(syscall(SYS_rt_sigqueueinfo, getpid(), SIGBUS, &fault) == 0);
	si = taken_back(SIGBUS, fd);
	CHECK(si.si_code == BUS_ADRERR);
	CHECK(si.si_addr == &marker);
	return 0;
}
