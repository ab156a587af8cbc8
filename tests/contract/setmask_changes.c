/* SPDX-License-Identifier: MIT */
/* sigfd_setmask() replaces the set of signals the descriptor reports: a
 * pending signal newly in the mask becomes readable at once, one taken out
 * of the mask stops being reported (and stays pending). */
#include "check.h"

int main(void)
{
	sigset_t usr1 = set_of(SIGUSR1), usr2 = set_of(SIGUSR2), both = usr1, none;
	sigaddset(&both, SIGUSR2);
	sigemptyset(&none);
	block_only(&both);
	int fd = sigfd(&usr1, SIGFD_NONBLOCK | test_mode());
	CHECK(fd >= 0);
	struct sigfd_siginfo r;

	CHECK(kill(getpid(), SIGUSR2) == 0);
	CHECK(poll_events(fd, POLLIN, 0) == 0);
	errno = 0;
	CHECK(read(fd, &r, sizeof r) == -1 && errno == EAGAIN);

	CHECK(sigfd_setmask(fd, &usr2) == 0);
	CHECK(test_mode() || fdinfo_sigmask(fd) == sigbit(SIGUSR2));
	settle(fd, &usr2);
	CHECK(poll_events(fd, POLLIN, 0) == POLLIN);
	CHECK(read_one(fd).ssi_signo == SIGUSR2);

	/* SIGUSR1 is no longer reported. */
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(poll_events(fd, POLLIN, 0) == 0);
	CHECK(!none_pending(&usr1));
	errno = 0;
	CHECK(read(fd, &r, sizeof r) == -1 && errno == EAGAIN);

	/* An empty mask: nothing reported, the fd stays valid. */
	CHECK(sigfd_setmask(fd, &none) == 0);
	CHECK(test_mode() || fdinfo_sigmask(fd) == 0);
	CHECK(poll_events(fd, POLLIN, 0) == 0);

	CHECK(sigfd_setmask(fd, &both) == 0);
	CHECK(test_mode() || fdinfo_sigmask(fd) == (sigbit(SIGUSR1) | sigbit(SIGUSR2)));
	settle(fd, &both);
	CHECK(read_one(fd).ssi_signo == SIGUSR1);
	errno = 0;
	CHECK(read(fd, &r, sizeof r) == -1 && errno == EAGAIN);

	/* The flags given at creation survive a setmask. */
	CHECK(sigfd_setmask(fd, &usr1) == 0);
	errno = 0;
	CHECK(read(fd, &r, sizeof r) == -1 && errno == EAGAIN);
	CHECK(close(fd) == 0);
	return 0;
}
