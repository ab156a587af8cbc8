/* SPDX-License-Identifier: MIT */
/* When every copy of a share fd is closed (here one in a child, then ours),
 * the creator stops taking its signals: later ones stay pending, with their
 * origin, for sigwaitinfo or a new fd. */
#include "share_util.h"

int main(void)
{
	sigset_t mask = set_of(SIGUSR2);
	siginfo_t si;
	int fd, ready[2], release[2];
	pid_t holder;

	block_only(&mask);
	fd = sigfd(&mask, SIGFD_SHARE);
	CHECK(fd >= 0);
	CHECK(pipe(ready) == 0 && pipe(release) == 0);
	holder = fork();
	CHECK(holder >= 0);
	if (holder == 0) {
		char c;
		/* While this copy lives, the fd still takes our parent's signals. */
		CHECK(read_one(fd).ssi_signo == SIGUSR2);
		CHECK(write(ready[1], "r", 1) == 1);
		CHECK(read(release[0], &c, 1) == 1);
		_exit(0);
	}
	CHECK(close(fd) == 0);
	CHECK(kill(getpid(), SIGUSR2) == 0);
	char c;
	CHECK(read(ready[0], &c, 1) == 1);
	CHECK(write(release[1], "x", 1) == 1);
	reap_ok(holder);

	/* The last copy is gone: the forwarding thread notices and leaves. */
	WAIT_UNTIL(forwarders() == 0);
	CHECK(kill(getpid(), SIGUSR2) == 0);
	CHECK(pending_has(SIGUSR2));
	CHECK(sigwaitinfo(&mask, &si) == SIGUSR2);
	CHECK(si.si_pid == getpid() && si.si_code == SI_USER);
	close_pair(ready);
	close_pair(release);
	return 0;
}
