/* SPDX-License-Identifier: MIT */
/* poll() reports POLLIN exactly when a record can be read: not before the
 * signal, yes while it is pending, not after it was read; and a pending
 * signal outside the fd's mask never makes it readable. */
#include "check.h"

int main(void)
{
	sigset_t both = set_of(SIGUSR1);
	sigaddset(&both, SIGUSR2);
	block_only(&both);
	sigset_t usr1 = set_of(SIGUSR1);
	int fd = sigfd(&usr1, test_mode());
	CHECK(fd >= 0);

	CHECK(poll_events(fd, POLLIN, 0) == 0);

	/* Pending but not in the mask: still not readable. */
	CHECK(kill(getpid(), SIGUSR2) == 0);
	CHECK(poll_events(fd, POLLIN, 0) == 0);

	CHECK(kill(getpid(), SIGUSR1) == 0);
	settle(fd, &usr1);
	CHECK(poll_events(fd, POLLIN, 0) == POLLIN);
	/* Polling does not consume: still readable. */
	CHECK(poll_events(fd, POLLIN, 0) == POLLIN);
	CHECK(read_one(fd).ssi_signo == SIGUSR1);
	CHECK(poll_events(fd, POLLIN, 0) == 0);

	/* Readiness arriving while poll() waits: a child sends it. The long
	 * timeout only bounds a failure. */
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		CHECK(kill(getppid(), SIGUSR1) == 0);
		_exit(0);
	}
	CHECK(poll_events(fd, POLLIN, 30000) == POLLIN);
	struct sigfd_siginfo r = read_one(fd);
	CHECK(r.ssi_signo == SIGUSR1);
	CHECK(r.ssi_pid == (uint32_t)pid);
	CHECK(poll_events(fd, POLLIN, 0) == 0);
	reap_ok(pid);

	/* SIGUSR2 is still pending in the process, untouched by the fd. */
	sigset_t pending;
	CHECK(sigpending(&pending) == 0);
	CHECK(sigismember(&pending, SIGUSR2) == 1);
	CHECK(close(fd) == 0);
	return 0;
}
