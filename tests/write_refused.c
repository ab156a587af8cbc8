/* SPDX-License-Identifier: MIT */
/* A sigfd is read-only: write() fails with -1 (EINVAL for a signalfd, EBADF
 * for the user-space share mode's pipe) and the process lives on, with no
 * SIGPIPE raised, and the fd still works. */
#include "check.h"

int main(void)
{
	sigset_t set = set_of(SIGUSR1);
	block_only(&set);
	int fd = sigfd(&set, SIGFD_NONBLOCK | test_mode());
	CHECK(fd >= 0);
	struct sigfd_siginfo r;
	memset(&r, 0, sizeof r);

	errno = 0;
	CHECK(write(fd, &r, sizeof r) == -1);
	CHECK(errno == EINVAL || errno == EBADF);
	sigset_t pending;
	CHECK(sigpending(&pending) == 0 && !sigismember(&pending, SIGPIPE));
	CHECK(kill(getpid(), SIGUSR1) == 0);
	settle(fd, &set);
	CHECK(read_one(fd).ssi_signo == SIGUSR1);
	CHECK(close(fd) == 0);
	return 0;
}
