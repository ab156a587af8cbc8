/* SPDX-License-Identifier: MIT */
/* A signal already pending is readable the moment the call that puts it in
 * a descriptor's mask returns, as with a signalfd: poll() with no timeout
 * reports POLLIN and a non-blocking read() gets the record. Both
 * sigfd_setmask() adding it and sigfd() made with it, 100 times each. */
#include "check.h"

static void readable_now(int fd, int sig, const char *how, int round)
{
	if (poll_events(fd, POLLIN, 0) != POLLIN) {
		fprintf(stderr, "round %d: pending signal %d not readable at once after %s\n", round, sig,
			how);
		exit(1);
	}
	CHECK(read_one(fd).ssi_signo == (uint32_t)sig);
}

int main(void)
{
	sigset_t usr1 = set_of(SIGUSR1), usr2 = set_of(SIGUSR2), both = usr1;
	sigaddset(&both, SIGUSR2);
	block_only(&both);

	int fd = sigfd(&usr1, SIGFD_NONBLOCK | test_mode());
	CHECK(fd >= 0);
	for (int i = 0; i < 100; i++) {
		CHECK(kill(getpid(), SIGUSR2) == 0);
		CHECK(sigfd_setmask(fd, &usr2) == 0);
		readable_now(fd, SIGUSR2, "sigfd_setmask()", i);
		CHECK(sigfd_setmask(fd, &usr1) == 0);
	}
	CHECK(close(fd) == 0);
	for (int i = 0; i < 100; i++) {
		CHECK(kill(getpid(), SIGUSR2) == 0);
		fd = sigfd(&usr2, SIGFD_NONBLOCK | test_mode());
		CHECK(fd >= 0);
		readable_now(fd, SIGUSR2, "sigfd()", i);
		CHECK(close(fd) == 0);
	}
	return 0;
}
