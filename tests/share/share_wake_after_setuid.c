/* SPDX-License-Identifier: MIT */
/* A program that made a share fd as root and then gave up root (all its
 * threads, as setresuid() does) still reaches the forwarding thread: the
 * thread's wake-up pipe, made by root, can be opened again through /proc
 * by the process whatever uid it has taken. A sigfd_setmask() that adds a
 * pending signal works, the signal is readable when it returns, and a new
 * share fd can be made. Needs root; the user-space backend only. */
#include "share_util.h"

#define NOBODY 65534

int main(void)
{
	sigset_t usr1 = set_of(SIGUSR1), both = set_of(SIGUSR1);
	int fd, second;

	if (geteuid() != 0) {
		printf("SKIPPED: needs root, to make the share fd as root and then give root up\n");
		return 77;
	}
	sigaddset(&both, SIGUSR2);
	block_only(&both);
	CHECK(setenv("SIGFD_BACKEND", "user", 1) == 0);
	fd = sigfd(&usr1, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(fd >= 0);
	CHECK(setresgid(NOBODY, NOBODY, NOBODY) == 0);
	CHECK(setresuid(NOBODY, NOBODY, NOBODY) == 0);
	CHECK(kill(getpid(), SIGUSR2) == 0);
	CHECK(sigfd_setmask(fd, &both) == 0);
	CHECK(poll_events(fd, POLLIN, 0) & POLLIN);
	CHECK(read_one(fd).ssi_signo == SIGUSR2);
	second = sigfd(&usr1, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(second >= 0);
	CHECK(close(second) == 0);
	CHECK(close(fd) == 0);
	return 0;
}
