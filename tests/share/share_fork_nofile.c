/* SPDX-License-Identifier: MIT */
/* fork() with no descriptor left under RLIMIT_NOFILE: the fork needs none
 * from the library, and the parent's share fds go on working. */
#include <sys/resource.h>

#include "share_util.h"

int main(void)
{
	sigset_t usr1 = set_of(SIGUSR1);
	block_only(&usr1);
	int fd = sigfd(&usr1, SIGFD_SHARE);
	CHECK(fd >= 0);
	int fill[1024], nfill = 0, spare;
	while ((spare = dup(0)) >= 0) {
		CHECK(nfill < 1024);
		fill[nfill++] = spare;
		if (spare >= 200)
			break;
	}
	struct rlimit old, rl;
	CHECK(getrlimit(RLIMIT_NOFILE, &old) == 0);
	rl = old;
	rl.rlim_cur = (rlim_t)fill[nfill - 1] + 1;
	CHECK(setrlimit(RLIMIT_NOFILE, &rl) == 0);
	CHECK(dup(0) == -1 && errno == EMFILE);
	for (int i = 0; i < 10; i++) {
		pid_t child = fork();
		CHECK(child >= 0);
		if (child == 0)
			_exit(0); /* a sanitizer's exit-time check would need a descriptor */
		reap_ok(child);
		CHECK(kill(getpid(), SIGUSR1) == 0);
		CHECK(read_one(fd).ssi_signo == SIGUSR1);
	}
	CHECK(setrlimit(RLIMIT_NOFILE, &old) == 0);
	while (nfill > 0)
		CHECK(close(fill[--nfill]) == 0);
	CHECK(close(fd) == 0);
	return 0;
}
