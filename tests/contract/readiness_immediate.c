/* SPDX-License-Identifier: MIT */
/* A signal sent to the process is readable the moment kill() returns: poll()
 * with no timeout reports POLLIN and a non-blocking read() gets the record,
 * as with a signalfd, where a pending signal is the record. */
#include "check.h"

int main(void)
{
	sigset_t set = set_of(SIGUSR1);
	block_only(&set);
	int fd = sigfd(&set, SIGFD_NONBLOCK | test_mode());
	CHECK(fd >= 0);

	for (int i = 0; i < 100; i++) {
		CHECK(kill(getpid(), SIGUSR1) == 0);
		CHECK(poll_events(fd, POLLIN, 0) == POLLIN);
		CHECK(read_one(fd).ssi_signo == SIGUSR1);
	}
	CHECK(close(fd) == 0);
	return 0;
}
