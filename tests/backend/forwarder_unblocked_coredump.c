/* SPDX-License-Identifier: MIT */
/* A signal whose default action dumps core, in a share fd's mask, blocked
 * in the main thread but left unblocked by another thread, is the
 * program's: the process dies of it and the descriptor never reports it.
 * The kernel does not act on a core-dumping signal when it is sent (as it
 * does on other fatal ones): a thread dequeues it, so the forwarding thread
 * took it as often as not (issue 25: 39-139 of 200 read, the process
 * living on). Each round a new child makes a share fd for SIGQUIT, starts
 * a thread that unblocks SIGQUIT, and is sent SIGQUIT by the test; it must
 * die of it. The user-space backend's rule (sigfd(3)). */
#include "unblocked_rounds.h"

static int stolen_in_child(void)
{
	sigset_t mask = set_of(SIGQUIT);
	int ready[2], stolen;
	pid_t child;

	CHECK(pipe(ready) == 0);
	child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		struct unblocker u = { SIGQUIT, ready[1] };
		int fd;

		default_action(SIGQUIT);
		block_only(&mask);
		fd = sigfd(&mask, SIGFD_SHARE | SIGFD_NONBLOCK);
		CHECK(fd >= 0);
		start_unblocker(&u); /* its byte says SIGQUIT is unblocked there */
		exit_if_read(fd, SIGQUIT, 10000);
		_exit(0);
	}
	get_byte(ready[0]);
	CHECK(kill(child, SIGQUIT) == 0);
	stolen = died_of(child, SIGQUIT);
	close_pair(ready);
	return stolen;
}

int main(void)
{
	int stolen = unblocked_rounds(stolen_in_child, "SIGQUITs read from the descriptor instead of killing the process");

	CHECK(stolen_counted(stolen) == 0);
	return 0;
}
