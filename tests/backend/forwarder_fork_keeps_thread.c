/* SPDX-License-Identifier: MIT */
/* What the fork handlers do (sigfd(3) ATTRIBUTES, docs/design.md): they
 * take the share lock around fork() and nothing more. The parent's
 * forwarding thread is never stopped or started again: its thread id is the
 * same across 100 forks, and a signal sent while the children run is
 * forwarded. Each child has no forwarding thread and no write end of the
 * parent's pipes. The user-space backend only (the kernel backends have no
 * thread). */
#include "share_util.h"

int main(void)
{
	sigset_t usr1 = set_of(SIGUSR1);
	int fd;

	block_only(&usr1);
	CHECK(setenv("SIGFD_BACKEND", "user", 1) == 0);
	fd = sigfd(&usr1, SIGFD_SHARE | SIGFD_NONBLOCK | SIGFD_CLOEXEC);
	CHECK(fd >= 0);
	pid_t before = forwarder_tid();
	CHECK(before > 0);
	for (int i = 0; i < 100; i++) {
		int go[2];
		CHECK(pipe(go) == 0);
		pid_t child = fork();
		CHECK(child >= 0);
		if (child == 0) {
			close(go[1]);
			get_byte(go[0]); /* the parent has sent its signal */
			_exit(forwarders() == 0 && library_sockets(0) == 0 ? 0 : 1);
		}
		if (i % 10 == 0) {
			CHECK(kill(getpid(), SIGUSR1) == 0);
			CHECK(poll_events(fd, POLLIN, 10000) & POLLIN);
			CHECK(read_one(fd).ssi_signo == SIGUSR1);
		}
		put_byte(go[1]);
		reap_ok(child);
		close_pair(go);
		CHECK(forwarder_tid() == before);
	}
	CHECK(close(fd) == 0);
	return 0;
}
