/* SPDX-License-Identifier: MIT */
/* A process whose descriptor table is full but for its last N numbers
 * makes its first share fd: with fewer than the four sigfd(3) names (a
 * socket pair for the share fd, another for the door to the thread) it
 * fails with EMFILE, with four or more it works. With four free the
 * thread's end of the door sat at the last number, the thread's move of
 * it above that number asked for one past the limit, and sigfd() failed
 * with EINVAL. The thread is named sigfd-forward however full the table.
 * Each N in a child of its own, so that each starts the thread. */
#include <sys/resource.h>
#include <sys/wait.h>

#include "share_util.h"

#define LIMIT 64

static void try_with_free(int free_at_top)
{
	sigset_t mask = set_of(SIGUSR1);
	struct rlimit lim;
	int fd;

	block_only(&mask);
	CHECK(getrlimit(RLIMIT_NOFILE, &lim) == 0);
	lim.rlim_cur = LIMIT; /* the hard limit kept: valgrind refuses to lower it */
	CHECK(setrlimit(RLIMIT_NOFILE, &lim) == 0);
	for (int n = 0; n < LIMIT - free_at_top; n++)
		if (fcntl(n, F_GETFD) < 0)
			CHECK(open("/dev/null", O_RDONLY) == n);
	errno = 0;
	fd = sigfd(&mask, SIGFD_SHARE);
	printf("%d free: %d (%s)\n", free_at_top, fd, fd < 0 ? strerror(errno) : "works");
	if (free_at_top < 4) {
		CHECK(fd == -1 && errno == EMFILE);
		return;
	}
	CHECK(fd >= 0);
	/* Named as the thread starts: naming it from another thread takes a
	 * descriptor in the program's table, where none may be free. */
	CHECK(forwarder_tid() > 0);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(read_one(fd).ssi_signo == SIGUSR1);
}

int main(void)
{
	if (under_valgrind()) {
		/* It keeps the kernel's limit and refuses numbers past ours
		 * itself (errors_emfile): the top of the table is not ours. */
		puts("SKIPPED: under valgrind, which keeps descriptors of its own at the top of the table");
		return 77;
	}
	for (int free_at_top = 0; free_at_top <= 8; free_at_top++) {
		int status;
		pid_t child = fork();

		CHECK(child >= 0);
		if (child == 0) {
			try_with_free(free_at_top);
			fflush(stdout);
			_exit(0); /* the descriptors it filled die with it */
		}
		CHECK(waitpid(child, &status, 0) == child);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	return 0;
}
