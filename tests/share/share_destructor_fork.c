/* SPDX-License-Identifier: MIT */
/* A program destructor that forks, run at exit() while a share fd is open:
 * the library's own exit-time code leaves its lock free, so the fork (and
 * its child's fork handlers) go through and the process ends with its
 * status. Built against the static library here and against the shared
 * one by share_destructor_fork_shared.sh. */
#include "check.h"

static int forking_destructor_ran;

__attribute__((destructor)) static void fork_at_exit(void)
{
	if (!forking_destructor_ran++) {
		pid_t child = fork();
		if (child == 0)
			_exit(0);
		if (child < 0 || waitpid(child, NULL, 0) != child)
			_exit(9);
	}
}

int main(void)
{
	sigset_t usr1 = set_of(SIGUSR1);
	block_only(&usr1);
	for (int i = 0; i < 20; i++) {
		pid_t pid = fork();
		CHECK(pid >= 0);
		if (pid == 0) {
			forking_destructor_ran = 0;
			int fd = sigfd(&usr1, SIGFD_SHARE);
			CHECK(fd >= 0);
			CHECK(kill(getpid(), SIGUSR1) == 0);
			exit(5); /* fd left open: the thread is running at exit */
		}
		int status;
		CHECK(waitpid(pid, &status, 0) == pid);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 5);
	}
	forking_destructor_ran = 1; /* the test itself forks nothing at exit */
	return 0;
}
