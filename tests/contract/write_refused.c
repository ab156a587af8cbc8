/* SPDX-License-Identifier: MIT */
/* A sigfd is read-only: write() fails with -1 and the fd still works. A
 * signalfd refuses with EINVAL and raises nothing. The user-space share
 * mode's fd is a socket shut for writing: EPIPE, and SIGPIPE raised at the
 * writing thread as for any socket or pipe with no way on (sigfd(3)); the
 * test blocks it to see it pending. */
#include "check.h"

int main(void)
{
	sigset_t set = set_of(SIGUSR1), with_pipe = set, pending;
	struct timespec now = { 0, 0 };
	struct stat st;

	sigaddset(&with_pipe, SIGPIPE);
	block_only(&with_pipe);
	int fd = sigfd(&set, SIGFD_NONBLOCK | test_mode());
	CHECK(fd >= 0 && fstat(fd, &st) == 0);
	struct sigfd_siginfo r;
	memset(&r, 0, sizeof r);

	errno = 0;
	CHECK(write(fd, &r, sizeof r) == -1);
	if (S_ISSOCK(st.st_mode)) {
		sigset_t pipe_only = set_of(SIGPIPE);

		CHECK(errno == EPIPE);
		CHECK(sigtimedwait(&pipe_only, NULL, &now) == SIGPIPE);
	} else
		CHECK(errno == EINVAL);
	CHECK(sigpending(&pending) == 0 && !sigismember(&pending, SIGPIPE));
	CHECK(kill(getpid(), SIGUSR1) == 0);
	settle(fd, &set);
	CHECK(read_one(fd).ssi_signo == SIGUSR1);
	CHECK(close(fd) == 0);
	return 0;
}
