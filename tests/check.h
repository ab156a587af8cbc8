/* What every test program shares: an assertion that names the failure, and
 * helpers for blocking signals, reading records and reaping children. */
#ifndef SIGFD_TEST_CHECK_H
#define SIGFD_TEST_CHECK_H

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sigfd.h"

#define CHECK(cond)                                                              \
	do {                                                                     \
		if (!(cond)) {                                                   \
			fprintf(stderr, "%s:%d: check failed: %s (errno %d: %s)\n", \
				__FILE__, __LINE__, #cond, errno, strerror(errno)); \
			exit(1);                                                 \
		}                                                                \
	} while (0)

/* Block exactly the given signals in this thread (and in children). */
static inline void block_only(const sigset_t *set)
{
	CHECK(sigprocmask(SIG_SETMASK, set, NULL) == 0);
}

static inline sigset_t set_of(int sig)
{
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, sig);
	return s;
}

/* Read exactly one record; fails the test on anything else. */
static inline struct sigfd_siginfo read_one(int fd)
{
	struct sigfd_siginfo r;
	ssize_t n = read(fd, &r, sizeof r);
	CHECK(n == (ssize_t)sizeof r);
	return r;
}

/* Wait for a child and fail unless it exited 0. */
static inline void reap_ok(pid_t pid)
{
	int status;
	CHECK(waitpid(pid, &status, 0) == pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "child %d failed: status 0x%x\n", (int)pid, status);
		exit(1);
	}
}

#endif
