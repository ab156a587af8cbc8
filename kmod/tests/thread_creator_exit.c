/* SPDX-License-Identifier: MIT */
/* A creator thread that is not its process's last ends (pthread_exit)
 * while the process lives on: its own queue (a tgkill to it) moves to the
 * descriptor, read, then end of file; the process's signals stay with the
 * sibling threads that live on (issue 16's contract at the creator's end),
 * those sent before that point (POLLHUP) and after it alike. */
#include <pthread.h>
#include <sys/syscall.h>

#include "kmod_util.h"

static int fd = -1, quit[2];
static pid_t creator_tid;

static void *creator(void *arg)
{
	(void)arg;
	creator_tid = (pid_t)syscall(SYS_gettid);
	fd = raw_create(bit(SIGUSR1) | bit(SIGRTMIN), SIGFD_KF_NONBLOCK);
	get_byte(quit[0]);
	return NULL;
}

int main(void)
{
	sigset_t mask;
	struct timespec zero = { 0, 0 };
	struct sigfd_siginfo r;
	int fds_before = fd_count();
	pthread_t t;
	siginfo_t si;

	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGRTMIN);
	block_only(&mask);
	CHECK(pipe(quit) == 0);
	CHECK(pthread_create(&t, NULL, creator, NULL) == 0);
	WAIT_UNTIL(fd >= 0);
	assert_kernel_fd(fd);
	CHECK(syscall(SYS_tgkill, getpid(), creator_tid, SIGUSR1) == 0);
	CHECK(sigqueue(getpid(), SIGRTMIN, int_val(5)) == 0);
	CHECK(queued_bytes(fd) == 2 * 128);
	put_byte(quit[1]);
	CHECK(pthread_join(t, NULL) == 0);
	/* The join can return before the thread's exit probe (the kernel
	 * clears its tid earlier in do_exit): POLLHUP says the probe ran. */
	CHECK(poll_events(fd, 0, 10000) == POLLHUP);
	CHECK(poll_events(fd, POLLIN, 0) == (POLLIN | POLLHUP));
	CHECK(queued_bytes(fd) == 128);
	r = read_one(fd);
	CHECK(r.ssi_signo == SIGUSR1 && r.ssi_code == SI_TKILL);
	CHECK(read(fd, &r, sizeof r) == 0);
	CHECK(sigqueue(getpid(), SIGRTMIN, int_val(6)) == 0);
	CHECK(read(fd, &r, sizeof r) == 0);
	CHECK(sigtimedwait(&mask, &si, &zero) == SIGRTMIN && si.si_value.sival_int == 5);
	CHECK(sigtimedwait(&mask, &si, &zero) == SIGRTMIN && si.si_value.sival_int == 6);
	CHECK(sigtimedwait(&mask, &si, &zero) == -1 && errno == EAGAIN);
	CHECK(close(fd) == 0 && close(quit[0]) == 0 && close(quit[1]) == 0);
	CHECK(fd_count() == fds_before);
	return 0;
}
