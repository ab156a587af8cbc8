/* SPDX-License-Identifier: MIT */
/* The library's fork() handlers, which run in every program it is linked
 * into, leave errno as the program set it, in the parent and the child:
 * before any share fd (they set EBADF there, looking for a door not yet
 * made), with one open, and after the last is closed. */
#include <sys/wait.h>

#include "share_util.h"

static void fork_keeps_errno(const char *when)
{
	int status;
	pid_t child;

	errno = EDOM;
	child = fork();
	if (child == 0)
		_exit(errno == EDOM ? 0 : errno);
	CHECK(child > 0);
	if (errno != EDOM)
		fprintf(stderr, "%s: the parent's errno after fork(): %s\n", when, strerror(errno));
	CHECK(errno == EDOM);
	CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status));
	if (WEXITSTATUS(status) != 0)
		fprintf(stderr, "%s: the child's errno after fork(): %s\n", when,
			strerror(WEXITSTATUS(status)));
	CHECK(WEXITSTATUS(status) == 0);
}

int main(void)
{
	sigset_t mask = set_of(SIGUSR1);
	int fd;

	block_only(&mask);
	fork_keeps_errno("before any share fd");
	CHECK((fd = sigfd(&mask, SIGFD_SHARE)) >= 0);
	fork_keeps_errno("with a share fd open");
	CHECK(close(fd) == 0);
	library_idle();
	fork_keeps_errno("after the last share fd closed");
	return 0;
}
