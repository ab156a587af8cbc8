/* SPDX-License-Identifier: MIT */
/* sigfd_unblocked_threads() does not count a main thread that called
 * pthread_exit(): it is a zombie until the process ends and takes no
 * signal, whatever its mask (issue 25: it was counted). The main thread
 * leaves SIGUSR1 unblocked and exits; the other thread, which blocks it,
 * asks once the main thread is a zombie: 0 threads. */
#include <pthread.h>

#include "share_util.h"

static void *ask_after_main(void *unused)
{
	sigset_t usr1 = set_of(SIGUSR1);
	pid_t tids[4];
	int n;

	(void)unused;
	WAIT_UNTIL(task_state(getpid()) == 'Z');
	n = sigfd_unblocked_threads(&usr1, tids, 4);
	printf("%d threads leave SIGUSR1 unblocked once the main thread has exited\n", n);
	fflush(stdout);
	_exit(n == 0 ? 0 : 1);
}

int main(void)
{
	pid_t child = fork();

	CHECK(child >= 0);
	if (child == 0) {
		sigset_t usr1 = set_of(SIGUSR1), none;
		pthread_t t;

		leak_check_off();
		sigemptyset(&none);
		block_only(&usr1); /* inherited by the thread */
		CHECK(pthread_create(&t, NULL, ask_after_main, NULL) == 0);
		block_only(&none);
		pthread_exit(NULL);
	}
	reap_ok(child);
	return 0;
}
