/* SPDX-License-Identifier: MIT */
/* Fork listen-in: a child reads its parent's signals through an inherited
 * share fd, with their sender and in order, and never its own. */
#include "check.h"

#define COUNT 100

int main(void)
{
	sigset_t mask;
	int ready[2], who[2], fd;
	pid_t creator = getpid(), listener, sender;

	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGRTMIN);
	block_only(&mask);
	fd = sigfd(&mask, SIGFD_SHARE);
	CHECK(fd >= 0);
	CHECK(pipe(ready) == 0 && pipe(who) == 0);

	listener = fork();
	CHECK(listener >= 0);
	if (listener == 0) {
		sigset_t pending;
		/* The child's own SIGUSR1: it must stay pending here. */
		CHECK(kill(getpid(), SIGUSR1) == 0);
		CHECK(write(ready[1], "r", 1) == 1);
		pid_t from;
		CHECK(read(who[0], &from, sizeof from) == (ssize_t)sizeof from);
		int next = 1, usr1 = 0;
		/* SIGUSR1 may come before the RT signals: lower numbers are
		 * dequeued first, as from any signal queue. */
		while (next <= COUNT || usr1 == 0) {
			struct sigfd_siginfo r = read_one(fd);
			CHECK(r.ssi_code == SI_QUEUE);
			CHECK(r.ssi_pid == (uint32_t)from);
			CHECK(r.ssi_uid == (uint32_t)getuid());
			if (r.ssi_signo == SIGUSR1) {
				CHECK(r.ssi_int == 7777); /* the sender's, not ours */
				usr1++;
			} else {
				CHECK(r.ssi_signo == (uint32_t)SIGRTMIN);
				CHECK(r.ssi_int == next);
				next++;
			}
		}
		CHECK(usr1 == 1);
		CHECK(sigpending(&pending) == 0);
		CHECK(sigismember(&pending, SIGUSR1));
		_exit(0);
	}
	char c;
	CHECK(read(ready[0], &c, 1) == 1);
	sender = fork();
	CHECK(sender >= 0);
	if (sender == 0) {
		for (int i = 1; i <= COUNT; i++)
			CHECK(sigqueue(creator, SIGRTMIN, (union sigval){ .sival_int = i }) == 0);
		CHECK(sigqueue(creator, SIGUSR1, (union sigval){ .sival_int = 7777 }) == 0);
		_exit(0);
	}
	CHECK(write(who[1], &sender, sizeof sender) == (ssize_t)sizeof sender);
	reap_ok(sender);
	reap_ok(listener);
	CHECK(close(fd) == 0);
	close_pair(ready);
	close_pair(who);
	return 0;
}
