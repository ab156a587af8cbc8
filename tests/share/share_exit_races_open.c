/* SPDX-License-Identifier: MIT */
/* exit() in one thread while another opens, changes and closes share fds:
 * every such process ends (the runner's time limit catches a hang) with the
 * status exit() gave. */
#include <pthread.h>

#include "share_util.h"

/* ThreadSanitizer's exit takes a good part of a second per process.
 * Under valgrind, 20 too: one run of 100 in a whole valgrind pass timed
 * out, its exiting main thread spinning inside valgrind beside the churn
 * thread asleep in a futex, no forwarding thread left; 40 runs of 100 on
 * their own did not do it again (see docs/testing.md). */
#define PROCESSES (UNDER_TSAN || under_valgrind() ? 20 : 100)

static void *churn(void *unused)
{
	sigset_t usr1 = set_of(SIGUSR1), usr2 = set_of(SIGUSR2);

	(void)unused;
	for (;;) {
		int fd = sigfd(&usr1, SIGFD_SHARE);
		CHECK(fd >= 0);
		CHECK(sigfd_setmask(fd, &usr2) == 0);
		CHECK(sigfd_setmask(fd, &usr1) == 0);
		CHECK(close(fd) == 0);
	}
	return NULL;
}

int main(void)
{
	sigset_t both = set_of(SIGUSR1);

	sigaddset(&both, SIGUSR2);
	block_only(&both);
	for (int i = 0; i < PROCESSES; i++) {
		pid_t child = fork();
		CHECK(child >= 0);
		if (child == 0) {
			pthread_t t;
			int keep = sigfd(&both, SIGFD_SHARE); /* a thread is running */
			CHECK(keep >= 0);
			CHECK(pthread_create(&t, NULL, churn, NULL) == 0);
			for (int spin = 0; spin < i * 50; spin++)
				CHECK(getppid() > 0); /* let the churn get going, a little more each time */
			exit(3);
		}
		int status;
		CHECK(waitpid(child, &status, 0) == child);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 3);
	}
	return 0;
}
