/* SPDX-License-Identifier: MIT */
/* A child forked while the parent's forwarding thread is busy (a flood into
 * a share fd nobody reads yet) can use a share fd of its own at once; the
 * fork stops nothing in the parent, whose flood all arrives in order. */
#include "share_util.h"

#define FORKS 50
#define COUNT 2000

int main(void)
{
	if (UNDER_TSAN) {
		puts("SKIPPED: ThreadSanitizer aborts when a forked child starts a thread while its parent had one (see tests/check.h)");
		return 77;
	}
	sigset_t both = set_of(SIGRTMIN), usr2 = set_of(SIGUSR2);
	pid_t me = getpid();
	sigaddset(&both, SIGUSR2);
	block_only(&both);
	sigset_t rt = set_of(SIGRTMIN);
	int fd = sigfd(&rt, SIGFD_SHARE);
	CHECK(fd >= 0);
	pid_t sender = fork();
	CHECK(sender >= 0);
	if (sender == 0) {
		for (int i = 0; i < COUNT; i++)
			while (sigqueue(me, SIGRTMIN, int_val(i)) < 0)
				CHECK(errno == EAGAIN);
		_exit(0);
	}
	for (int i = 0; i < FORKS; i++) {
		pid_t child = fork();
		CHECK(child >= 0);
		if (child == 0) {
			int own = sigfd(&usr2, SIGFD_SHARE);
			CHECK(own >= 0);
			CHECK(kill(getpid(), SIGUSR2) == 0);
			CHECK(read_one(own).ssi_signo == SIGUSR2);
			exit(0);
		}
		reap_ok(child);
	}
	for (int i = 0; i < COUNT; i++)
		CHECK(read_one(fd).ssi_int == i);
	reap_ok(sender);
	CHECK(close(fd) == 0);
	return 0;
}
