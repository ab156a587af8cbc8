/* SPDX-License-Identifier: MIT */
/* A child made without fork handlers (syscall(SYS_fork), as _Fork() and
 * clone() users make them) while a thread of the parent is handing a new
 * share fd's writer to the forwarding thread inherits that writer's
 * number. The child closes what it inherited, opens files of its own,
 * which take the numbers again, and makes a share fd: the library starts
 * over in the new process and must close only what is still its own. It
 * closed the writer's number unchecked, one of the child's files. Here the
 * fork is made from inside the hand-over (sendmsg with SCM_RIGHTS,
 * wrapped: tests.mk), so the writer is always in flight. */
#include <stdbool.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "share_util.h"

#define CHILD_FILES 40

static sigset_t mask;
static bool armed;
static int child_status = -1; /* judged in main(): the library's lock is held here */

/* The child: anything but 0 is a failure, 2 a file of its own closed. */
static int child_after_raw_fork(void)
{
	int mine[CHILD_FILES], fd;

	for (int n = 3; n < LEAK_CHECK_FDS; n++)
		close(n);
	for (int k = 0; k < CHILD_FILES; k++)
		if ((mine[k] = open("/dev/null", O_RDONLY)) < 0)
			return 1;
	if ((fd = sigfd(&mask, SIGFD_SHARE)) < 0)
		return 1;
	for (int k = 0; k < CHILD_FILES; k++)
		if (fcntl(mine[k], F_GETFD) < 0 || mine[k] == fd)
			return 2;
	return 0;
}

ssize_t __real_sendmsg(int fd, const struct msghdr *msg, int flags);
ssize_t __wrap_sendmsg(int fd, const struct msghdr *msg, int flags);
ssize_t __wrap_sendmsg(int fd, const struct msghdr *msg, int flags)
{
	if (msg->msg_controllen > 0 && armed) {
		pid_t child;

		armed = false;
		child = (pid_t)syscall(SYS_fork);
		if (child == 0)
			syscall(SYS_exit_group, child_after_raw_fork());
		if (child < 0 || waitpid(child, &child_status, 0) != child)
			child_status = -1;
	}
	return __real_sendmsg(fd, msg, flags);
}

int main(void)
{
	int first, second;

	mask = set_of(SIGUSR1);
	block_only(&mask);
	CHECK((first = sigfd(&mask, SIGFD_SHARE)) >= 0);
	armed = true;
	CHECK((second = sigfd(&mask, SIGFD_SHARE)) >= 0);
	CHECK(!armed && child_status != -1 && WIFEXITED(child_status));
	if (WEXITSTATUS(child_status) == 2)
		fputs("the child's own file was closed by its sigfd()\n", stderr);
	CHECK(WEXITSTATUS(child_status) == 0);
	CHECK(close(first) == 0 && close(second) == 0);
	return 0;
}
