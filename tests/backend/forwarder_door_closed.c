/* SPDX-License-Identifier: MIT */
/* The program closes the library's end of the door to its forwarding
 * thread (the one socket in its table that is no share fd) and opens a
 * pipe at that number. The share fd made before keeps working; a new
 * sigfd() fails with EBADF while it is open, and the pipe is neither
 * written nor closed by the library; once the old share fd is closed, the
 * next sigfd() starts a new thread and works. The user-space backend
 * only. */
#include "share_util.h"

int main(void)
{
	sigset_t usr1 = set_of(SIGUSR1), usr2 = set_of(SIGUSR2), both = usr1;
	int old, door, p[2], fresh;
	char c;

	sigaddset(&both, SIGUSR2);
	block_only(&both);
	CHECK(setenv("SIGFD_BACKEND", "user", 1) == 0);
	old = sigfd(&usr1, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(old >= 0);
	door = library_door(old);
	CHECK(door >= 0);
	CHECK(close(door) == 0);
	CHECK(pipe2(p, O_NONBLOCK) == 0);
	/* One end of the pipe at the door's number: what the library wrote
	 * there would be read at p[0]. */
	if (p[0] != door && p[1] != door) {
		CHECK(dup2(p[1], door) == door);
		CHECK(close(p[1]) == 0);
		p[1] = door;
	}

	errno = 0;
	CHECK(sigfd(&usr2, SIGFD_SHARE) == -1 && errno == EBADF);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(poll_events(old, POLLIN, 10000) & POLLIN);
	CHECK(read_one(old).ssi_signo == SIGUSR1);
	CHECK(read(p[0], &c, 1) == -1 && errno == EAGAIN);
	CHECK(fcntl(door, F_GETFD) >= 0);

	CHECK(close(old) == 0);
	WAIT_UNTIL(forwarders() == 0);
	fresh = sigfd(&usr2, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(fresh >= 0);
	CHECK(kill(getpid(), SIGUSR2) == 0);
	CHECK(poll_events(fresh, POLLIN, 10000) & POLLIN);
	CHECK(read_one(fresh).ssi_signo == SIGUSR2);
	CHECK(read(p[0], &c, 1) == -1 && errno == EAGAIN);
	CHECK(close(fresh) == 0);
	close_pair(p);
	return 0;
}
