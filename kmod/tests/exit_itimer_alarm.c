/* SPDX-License-Identifier: MIT */
/* SIGALRM of an ITIMER_REAL moves at exit like any other signal, periodic
 * timer or one-shot: the hand-over takes the sigqueue without a dequeue, so
 * nothing re-arms a timer that do_exit() has cancelled (before issue 16 the
 * module dequeued, and so had to leave a periodic timer's SIGALRM behind). */
#include <sys/time.h>

#include "kmod_util.h"

static void round_trip(int periodic)
{
	struct itimerval it = { .it_interval.tv_sec = periodic ? 1 : 0, .it_value.tv_usec = 1000 };
	int link[2], go[2], fd;
	struct sigfd_siginfo r;
	pid_t creator;

	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, link) == 0);
	CHECK(pipe(go) == 0);
	creator = fork();
	CHECK(creator >= 0);
	if (creator == 0) {
		int f = raw_create(bit(SIGALRM) | bit(SIGUSR1), 0);

		CHECK(f >= 0);
		CHECK(setitimer(ITIMER_REAL, &it, NULL) == 0);
		WAIT_UNTIL(pending_has(SIGALRM));
		CHECK(kill(getpid(), SIGUSR1) == 0);
		send_fd(link[1], f);
		get_byte(go[0]);
		_exit(0);
	}
	fd = recv_fd(link[0]);
	put_byte(go[1]);
	reap_ok(creator);
	r = read_one(fd);
	CHECK(r.ssi_signo == SIGUSR1);
	r = read_one(fd);
	CHECK(r.ssi_signo == SIGALRM && r.ssi_code == SI_KERNEL);
	CHECK(read(fd, &r, sizeof r) == 0);
	CHECK(close(fd) == 0 && close(go[0]) == 0 && close(go[1]) == 0);
	CHECK(close(link[0]) == 0 && close(link[1]) == 0);
}

int main(void)
{
	sigset_t mask;
	int fds_before = fd_count();

	sigemptyset(&mask);
	sigaddset(&mask, SIGALRM);
	sigaddset(&mask, SIGUSR1);
	block_only(&mask);
	round_trip(1);
	round_trip(0);
	CHECK(fd_count() == fds_before);
	return 0;
}
