/* SPDX-License-Identifier: MIT */
/* The user-space backend keeps its own descriptors (the forwarding
 * thread's signalfd, epoll set, its end of the door and the writers) in a
 * table of the thread's own: the program's table holds the share fds it
 * was given and, while the thread runs, the library's end of the door (one
 * socket). So, 100 rounds: sigfd() adds exactly one descriptor (two for
 * the first, which starts the thread), and close() of it takes the count
 * back at once (no thread hop to wait for). And the thread holds none of
 * the program's files: a pipe the program made before the thread started
 * reads end of file as soon as the program closes its write end. The
 * user-space backend only (the kernel backends have no descriptors of
 * their own). */
#include "share_util.h"

#define ROUNDS 100

int main(void)
{
	sigset_t usr1 = set_of(SIGUSR1);
	int before, program[2];

	block_only(&usr1);
	CHECK(setenv("SIGFD_BACKEND", "user", 1) == 0);
	/* Open when the thread starts, so in the table it begins with. */
	CHECK(pipe(program) == 0);
	before = fd_count();
	int first = sigfd(&usr1, SIGFD_SHARE | SIGFD_CLOEXEC);
	CHECK(first >= 0);
	CHECK(fd_count() == before + 2);
	CHECK(close(program[1]) == 0);
	CHECK(poll_events(program[0], POLLIN, 0) & POLLHUP);
	CHECK(close(program[0]) == 0);
	CHECK(close(first) == 0);
	for (int i = 0; i < ROUNDS; i++) {
		before = fd_count();
		int fd = sigfd(&usr1, SIGFD_SHARE | SIGFD_CLOEXEC);
		CHECK(fd >= 0);
		CHECK(fd_count() == before + 1);
		CHECK(close(fd) == 0);
		CHECK(fd_count() == before);
	}
	return 0;
}
