/* SPDX-License-Identifier: MIT */
/* What every test program shares: an assertion that names the failure, and
 * helpers for blocking signals, reading records and reaping children. */
#ifndef SIGFD_TEST_CHECK_H
#define SIGFD_TEST_CHECK_H

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
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

/* Readiness now (timeout 0) or within ms milliseconds: the revents poll()
 * reports for fd, 0 when nothing happened in time. */
static inline short poll_events(int fd, short events, int ms)
{
	struct pollfd p = { .fd = fd, .events = events };
	int n;
	while ((n = poll(&p, 1, ms)) < 0 && errno == EINTR)
		;
	CHECK(n >= 0);
	return n ? p.revents : 0;
}

/* One byte over a pipe: how processes in a test tell each other "go". */
static inline void put_byte(int fd)
{
	char c = 'x';
	ssize_t n;
	while ((n = write(fd, &c, 1)) < 0 && errno == EINTR)
		;
	CHECK(n == 1);
}

static inline void get_byte(int fd)
{
	char c;
	ssize_t n;
	while ((n = read(fd, &c, 1)) < 0 && errno == EINTR)
		;
	CHECK(n == 1);
}

/* The mask the kernel holds for a signalfd, from /proc/self/fdinfo: bit
 * (sig - 1) for each signal 1..64. */
static inline uint64_t fdinfo_sigmask(int fd)
{
	char path[64], line[256];
	unsigned long long mask = 0;
	int found = 0;
	snprintf(path, sizeof path, "/proc/self/fdinfo/%d", fd);
	FILE *f = fopen(path, "r");
	CHECK(f != NULL);
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "sigmask: %llx", &mask) == 1)
			found = 1;
	CHECK(fclose(f) == 0);
	CHECK(found);
	return mask;
}

static inline uint64_t sigbit(int sig)
{
	return UINT64_C(1) << (sig - 1);
}

/* A sigval carrying an int with every byte defined: sigqueue() copies the
 * whole union, and valgrind rightly flags the bytes an int leaves unset. */
static inline union sigval int_val(int i)
{
	union sigval v;
	memset(&v, 0, sizeof v);
	v.sival_int = i;
	return v;
}

#endif
