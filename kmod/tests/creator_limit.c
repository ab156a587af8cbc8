/* SPDX-License-Identifier: MIT */
/* A creator has at most 1,024 descriptors open, wherever they are held
 * (SIGFD_CREATOR_MAX): its exit walks them with interrupts off.
 * The 1,025th is EMFILE, with the caller's pending signals untouched;
 * those handed to a child still count until the child lets them go; a
 * close makes room again; another thread of the same process is a
 * creator of its own, with room of its own. */
#include <pthread.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "kmod_util.h"

#define CREATOR_MAX 1024

static int fds[CREATOR_MAX];

static void *other_creator(void *unused)
{
	int fd;

	(void)unused;
	fd = raw_create(bit(SIGUSR1), SIGFD_KF_CLOEXEC);
	CHECK(fd >= 0);
	CHECK(close(fd) == 0);
	return NULL;
}

static void refused(void)
{
	errno = 0;
	CHECK(raw_create(bit(SIGUSR1), SIGFD_KF_CLOEXEC) == -1 && errno == EMFILE);
}

int main(void)
{
	struct rlimit lim = { CREATOR_MAX + 64, CREATOR_MAX + 64 };
	sigset_t usr1 = set_of(SIGUSR1);
	int ready[2], release[2], status, fd;
	pthread_t t;
	pid_t child;
	char c;

	block_only(&usr1);
	CHECK(setrlimit(RLIMIT_NOFILE, &lim) == 0);
	for (int i = 0; i < CREATOR_MAX; i++) {
		fds[i] = raw_create(bit(SIGUSR1), SIGFD_KF_CLOEXEC);
		CHECK(fds[i] >= 0);
	}
	assert_kernel_fd(fds[0]);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	refused();
	CHECK(pending_has(SIGUSR1)); /* the refusal took nothing */

	/* Another thread is a creator of its own. */
	CHECK(pthread_create(&t, NULL, other_creator, NULL) == 0);
	CHECK(pthread_join(t, NULL) == 0);

	/* Held by a child only: still counted. */
	CHECK(pipe(ready) == 0 && pipe(release) == 0);
	child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		CHECK(close(ready[0]) == 0 && close(release[1]) == 0);
		CHECK(write(ready[1], "r", 1) == 1);
		CHECK(read(release[0], &c, 1) == 0);
		_exit(0);
	}
	CHECK(close(ready[1]) == 0 && close(release[0]) == 0);
	CHECK(read(ready[0], &c, 1) == 1);
	for (int i = 0; i < CREATOR_MAX; i++)
		CHECK(close(fds[i]) == 0);
	refused();
	CHECK(close(release[1]) == 0);
	CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(close(ready[0]) == 0);

	/* The child's exit closed the last copies: room again. */
	fd = raw_create(bit(SIGUSR1), SIGFD_KF_CLOEXEC);
	CHECK(fd >= 0);
	CHECK(read_one(fd).ssi_signo == SIGUSR1);
	CHECK(close(fd) == 0);
	puts("creator_limit: 1,024 descriptors, the next EMFILE, held by a child still counted");
	return 0;
}
