/* SPDX-License-Identifier: MIT */
/* A standard signal sent 5 times while its record is unread coalesces into
 * that one record, as a pending signal does in the kernel; once the record
 * is read, the next instance gives a new record. */
#include <fcntl.h>

#include "share_util.h"

int main(void)
{
	sigset_t mask = set_of(SIGUSR1);
	struct sigfd_siginfo r;
	int fd;

	block_only(&mask);
	fd = sigfd(&mask, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(fd >= 0);
	for (int i = 0; i < 5; i++)
		CHECK(kill(getpid(), SIGUSR1) == 0);
	/* User space: wait until the forwarding thread has taken them all
	 * (sigfd_setmask returns only between its batches), so every instance
	 * has met the unread record. The kernel module takes signals only at
	 * read(), so there they coalesce in the pending queue itself. */
	if (!kernel_backend(fd))
		WAIT_UNTIL(!pending_has(SIGUSR1));
	CHECK(sigfd_setmask(fd, &mask) == 0);

	struct pollfd p = { .fd = fd, .events = POLLIN };
	CHECK(poll(&p, 1, 5000) == 1);
	r = read_one(fd);
	CHECK(r.ssi_signo == SIGUSR1 && r.ssi_pid == (uint32_t)getpid() && r.ssi_code == SI_USER);
	CHECK(read(fd, &r, sizeof r) == -1 && errno == EAGAIN);

	/* Read now: a new instance is a new record, not swallowed. */
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(poll(&p, 1, 5000) == 1);
	CHECK(read_one(fd).ssi_signo == SIGUSR1);
	CHECK(read(fd, &r, sizeof r) == -1 && errno == EAGAIN);
	CHECK(close(fd) == 0);
	return 0;
}
