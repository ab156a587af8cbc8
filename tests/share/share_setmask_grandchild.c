/* SPDX-License-Identifier: MIT */
/* sigfd_setmask() on a share fd from a grandchild of its creator fails with
 * EPERM, as from a child: the share fds of every ancestor are remembered
 * across each fork(), also when the child in between made share fds of its
 * own (whose grandchildren get EPERM for them too). */
#include "share_util.h"

/* In a fork of this process: setmask on each fd must fail with EPERM. */
static void grandchild_refused(const int *fds, int n)
{
	sigset_t usr2 = set_of(SIGUSR2);
	pid_t pid = fork();

	CHECK(pid >= 0);
	if (pid == 0) {
		for (int i = 0; i < n; i++) {
			errno = 0;
			if (sigfd_setmask(fds[i], &usr2) != -1 || errno != EPERM) {
				fprintf(stderr, "grandchild: setmask of fd %d: errno %d (%s), want EPERM\n",
					fds[i], errno, strerror(errno));
				_exit(1);
			}
		}
		_exit(0);
	}
	reap_ok(pid);
}

static void run(int child_makes_own)
{
	sigset_t usr1 = set_of(SIGUSR1);
	int fds[2], n = 1;

	fds[0] = sigfd(&usr1, SIGFD_SHARE | SIGFD_NONBLOCK | SIGFD_CLOEXEC);
	CHECK(fds[0] >= 0);
	pid_t child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		if (child_makes_own) {
			fds[n] = sigfd(&usr1, SIGFD_SHARE | SIGFD_NONBLOCK | SIGFD_CLOEXEC);
			CHECK(fds[n] >= 0);
			n++;
		}
		grandchild_refused(fds, n);
		_exit(0);
	}
	reap_ok(child);
	/* Nothing changed the creator's fd: SIGUSR1 still comes through. */
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(poll_events(fds[0], POLLIN, 10000) & POLLIN);
	CHECK(read_one(fds[0]).ssi_signo == SIGUSR1);
	CHECK(close(fds[0]) == 0);
}

int main(void)
{
	sigset_t both = set_of(SIGUSR1);

	sigaddset(&both, SIGUSR2);
	block_only(&both);
	run(0);
	run(1);
	return 0;
}
