/* SPDX-License-Identifier: MIT */
/* sigfd_setmask on a share fd: in the creator it takes effect before it
 * returns (a signal removed stays pending); from any other process holding
 * the fd it fails with EPERM and changes nothing. */
#include "share_util.h"

int main(void)
{
	sigset_t both, usr1 = set_of(SIGUSR1), usr2 = set_of(SIGUSR2);
	int fd, done[2];
	pid_t child;

	sigemptyset(&both);
	sigaddset(&both, SIGUSR1);
	sigaddset(&both, SIGUSR2);
	block_only(&both);
	fd = sigfd(&usr1, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(fd >= 0);
	CHECK(pipe(done) == 0);
	child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		errno = 0;
		CHECK(sigfd_setmask(fd, &usr2) == -1 && errno == EPERM);
		CHECK(write(done[1], "d", 1) == 1);
		_exit(0);
	}
	char c;
	CHECK(read(done[0], &c, 1) == 1);
	reap_ok(child);
	/* The child's attempt changed nothing: SIGUSR1 still comes through. */
	CHECK(kill(getpid(), SIGUSR1) == 0);
	struct pollfd p = { .fd = fd, .events = POLLIN };
	CHECK(poll(&p, 1, 5000) == 1);
	CHECK(read_one(fd).ssi_signo == SIGUSR1);

	CHECK(sigfd_setmask(fd, &usr2) == 0);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(kill(getpid(), SIGUSR2) == 0);
	CHECK(poll(&p, 1, 5000) == 1);
	CHECK(read_one(fd).ssi_signo == SIGUSR2);
	CHECK(pending_has(SIGUSR1)); /* no longer in the mask: left alone */
	CHECK(close(fd) == 0);
	close_pair(done);
	return 0;
}
