/* SPDX-License-Identifier: MIT */
/* A process stopped, sent SIGTERM (default action, left unblocked in its
 * main thread, in a share fd's mask), then continued, as a shell's
 * `kill %1` does: it dies of SIGTERM and the descriptor never reports it.
 * No thread of a stopped process wants a signal, so the kernel does not
 * act on it when it is sent; at SIGCONT the main thread and the forwarding
 * thread race for it (issue 25: 51-88 of 200 read from the descriptor).
 * The user-space backend's rule (sigfd(3)). */
#include "unblocked_rounds.h"

static int stolen_in_child(void)
{
	sigset_t mask = set_of(SIGTERM), none;
	int ready[2], stolen, status;
	pid_t child;

	sigemptyset(&none);
	CHECK(pipe(ready) == 0);
	child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		int fd;

		default_action(SIGTERM);
		block_only(&none);
		fd = sigfd(&mask, SIGFD_SHARE | SIGFD_NONBLOCK);
		CHECK(fd >= 0);
		put_byte(ready[1]);
		exit_if_read(fd, SIGTERM, 10000);
		_exit(0);
	}
	get_byte(ready[0]);
	CHECK(kill(child, SIGSTOP) == 0);
	CHECK(waitpid(child, &status, WUNTRACED) == child && WIFSTOPPED(status));
	CHECK(kill(child, SIGTERM) == 0);
	CHECK(kill(child, SIGCONT) == 0);
	stolen = died_of(child, SIGTERM);
	close_pair(ready);
	return stolen;
}

int main(void)
{
	int stolen = unblocked_rounds(stolen_in_child, "SIGTERMs to a stopped process read from the descriptor");

	CHECK(stolen_counted(stolen) == 0);
	return 0;
}
