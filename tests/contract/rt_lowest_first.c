/* SPDX-License-Identifier: MIT */
/* Pending real-time signals are read lowest number first, whatever the
 * order they were sent in, as the kernel dequeues them. */
#include "check.h"

int main(void)
{
	sigset_t set = set_of(SIGRTMIN);
	sigaddset(&set, SIGRTMIN + 1);
	block_only(&set);
	int fd = sigfd(&set, SIGFD_NONBLOCK | test_mode());
	CHECK(fd >= 0);

	CHECK(sigqueue(getpid(), SIGRTMIN + 1, int_val(1)) == 0);
	CHECK(sigqueue(getpid(), SIGRTMIN, int_val(0)) == 0);
	settle(fd, &set);
	struct sigfd_siginfo r[4];
	CHECK(read(fd, r, sizeof r) == (ssize_t)(2 * sizeof r[0]));
	CHECK(r[0].ssi_signo == (uint32_t)SIGRTMIN && r[0].ssi_int == 0);
	CHECK(r[1].ssi_signo == (uint32_t)SIGRTMIN + 1 && r[1].ssi_int == 1);
	CHECK(close(fd) == 0);
	return 0;
}
