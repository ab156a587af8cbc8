/* SPDX-License-Identifier: MIT */
/* 200 rounds: a creator's children block on its descriptor in read(),
 * poll() and epoll_wait(), then the creator is killed (SIGKILL or SIGTERM).
 * Orphaned, each must wake with end of file (read 0, POLLIN|POLLHUP) and say
 * so on a pipe. Freeing the sighand, the descriptor and the epoll entry in
 * every order, many times over, must leave the kernel clean: the guest
 * runner fails on any warning, oops or panic. */
#include <sys/epoll.h>

#include "kmod_util.h"

#define ROUNDS 200
#define READERS 3

static void reader(int fd, int kind, int ready, int said)
{
	struct sigfd_siginfo r;
	char ok = 'n';

	if (kind == 0) {
		struct epoll_event ev = { .events = EPOLLIN };
		int ep = epoll_create1(0);

		CHECK(ep >= 0 && epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) == 0);
		CHECK(write(ready, "r", 1) == 1);
		if (epoll_wait(ep, &ev, 1, -1) == 1 && ev.events == (EPOLLIN | EPOLLHUP))
			ok = 'y';
	} else if (kind == 1) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		CHECK(write(ready, "r", 1) == 1);
		if (poll(&p, 1, -1) == 1 && p.revents == (POLLIN | POLLHUP))
			ok = 'y';
	} else {
		CHECK(write(ready, "r", 1) == 1);
		if (read(fd, &r, sizeof r) == 0)
			ok = 'y';
	}
	CHECK(write(said, &ok, 1) == 1);
	_exit(0);
}

int main(void)
{
	int ready[2], said[2];

	CHECK(pipe(ready) == 0 && pipe(said) == 0);
	for (int round = 0; round < ROUNDS; round++) {
		pid_t creator = fork();
		char c;

		CHECK(creator >= 0);
		if (creator == 0) {
			sigset_t mask = set_of(SIGUSR1);
			int fd;

			block_only(&mask);
			fd = sigfd(&mask, SIGFD_SHARE);
			CHECK(fd >= 0);
			for (int k = 0; k < READERS; k++) {
				pid_t kid = fork();
				CHECK(kid >= 0);
				if (kid == 0)
					reader(fd, k, ready[1], said[1]);
			}
			for (;;)
				pause();
		}
		for (int k = 0; k < READERS; k++)
			CHECK(read(ready[0], &c, 1) == 1);
		CHECK(kill(creator, round % 2 ? SIGKILL : SIGTERM) == 0);
		CHECK(waitpid(creator, NULL, 0) == creator);
		for (int k = 0; k < READERS; k++) {
			CHECK(read(said[0], &c, 1) == 1);
			CHECK(c == 'y');
		}
	}
	close_pair(ready);
	close_pair(said);
	return 0;
}
