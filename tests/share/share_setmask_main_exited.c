/* SPDX-License-Identifier: MIT */
/* sigfd_setmask() from another thread once main(), the creating thread, has
 * called pthread_exit(): the process lives on in its other threads. The
 * user-space backend's share fd is the process's: the new mask holds, and a
 * SIGUSR2 sent to the process is read. A kernel backend's is the creating
 * thread's, which has ended: EPERM (sigfd_setmask(3)) and end of file. The
 * module's backend asked /proc/self/fd what the descriptor was, and
 * /proc/self is the main thread's, whose fd/ is gone once it has exited: it
 * took its own share fd for none of its own, EINVAL (issue 28's review).
 * The process exits 0 from the worker. */
#include <pthread.h>

#include "share_util.h"

static int share_fd;

/* Is this process's main thread gone (a zombie leader)? */
static int leader_gone(void)
{
	char path[64];

	snprintf(path, sizeof path, "/proc/self/task/%d/stat", (int)getpid());
	return access(path, F_OK) < 0 || task_state(getpid()) == 'Z' || task_state(getpid()) == 'X';
}

static void *worker(void *unused)
{
	sigset_t both = set_of(SIGUSR1);

	(void)unused;
	sigaddset(&both, SIGUSR2);
	WAIT_UNTIL(leader_gone());
	if (kernel_backend(share_fd)) {
		struct sigfd_siginfo r;

		errno = 0;
		CHECK(sigfd_setmask(share_fd, &both) == -1 && errno == EPERM);
		CHECK(read(share_fd, &r, sizeof r) == 0);
	} else {
		CHECK(sigfd_setmask(share_fd, &both) == 0);
		CHECK(kill(getpid(), SIGUSR2) == 0);
		CHECK(poll_events(share_fd, POLLIN, 10000) == POLLIN);
		CHECK(read_one(share_fd).ssi_signo == SIGUSR2);
	}
	CHECK(close(share_fd) == 0);
	exit(0);
}

int main(void)
{
	sigset_t both = set_of(SIGUSR1), usr1 = set_of(SIGUSR1);
	pthread_t t;

	sigaddset(&both, SIGUSR2);
	block_only(&both);
	share_fd = sigfd(&usr1, SIGFD_SHARE);
	CHECK(share_fd >= 0);
	CHECK(pthread_create(&t, NULL, worker, NULL) == 0);
	pthread_exit(NULL);
}
