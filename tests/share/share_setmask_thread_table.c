/* SPDX-License-Identifier: MIT */
/* sigfd_setmask() judges a descriptor in the calling thread's table. A
 * thread that took a table of its own (unshare(CLONE_FILES)) and holds a
 * pipe at the number where the process's first table holds a share fd
 * must get EINVAL for it, as for any descriptor that is not a sigfd: the
 * module's backend asked /proc/self/fd, the main thread's table, found its
 * share fd there and sent its ioctl to the pipe (ENOTTY), the very call to
 * another driver that it asks first to avoid (issue 28's review). The
 * share fd itself, at another number of the new table, still takes a mask
 * that adds SIGUSR2, and a SIGUSR2 sent to the process is read from it. */
#include <pthread.h>
#include <sched.h>

#include "share_util.h"

static int share_fd;

static void *own_table(void *unused)
{
	sigset_t both = set_of(SIGUSR1);
	int p[2], moved;

	(void)unused;
	sigaddset(&both, SIGUSR2);
	CHECK(unshare(CLONE_FILES) == 0);
	CHECK((moved = dup(share_fd)) >= 0);
	CHECK(pipe(p) == 0);
	CHECK(dup2(p[0], share_fd) == share_fd);
	errno = 0;
	CHECK(sigfd_setmask(share_fd, &both) == -1 && errno == EINVAL);
	CHECK(sigfd_setmask(moved, &both) == 0);
	CHECK(kill(getpid(), SIGUSR2) == 0);
	CHECK(poll_events(moved, POLLIN, 10000) == POLLIN);
	CHECK(read_one(moved).ssi_signo == SIGUSR2);
	/* Closed here: the kernel lets the table go after pthread_join() has
	 * returned, and the copy of the share fd would keep it open after
	 * main() has closed its own. */
	CHECK(close(moved) == 0 && close(share_fd) == 0);
	close_pair(p);
	return NULL;
}

int main(void)
{
	sigset_t both = set_of(SIGUSR1), usr1 = set_of(SIGUSR1);
	pthread_t t;

	sigaddset(&both, SIGUSR2);
	block_only(&both);
	share_fd = sigfd(&usr1, SIGFD_SHARE);
	CHECK(share_fd >= 0);
	CHECK(pthread_create(&t, NULL, own_table, NULL) == 0);
	CHECK(pthread_join(t, NULL) == 0);
	CHECK(close(share_fd) == 0);
	return 0;
}
