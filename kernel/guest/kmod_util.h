/* SPDX-License-Identifier: MIT */
/* kmod/tests' helper header, for running those tests against the kernel's
 * own creator-bound signalfd (SFD_CREATOR): the same helpers, except that
 * the descriptor must be a signalfd bound to its creator, and there is no
 * raw /dev/sigfd interface. */
#ifndef SIGFD_KPATCH_KMOD_UTIL_H
#define SIGFD_KPATCH_KMOD_UTIL_H

#include <fcntl.h>
#include <sched.h>
#include <stdint.h>

#include "share_util.h"

static inline uint64_t bit(int sig)
{
	return (uint64_t)1 << (sig - 1);
}

/* The descriptor really comes from SFD_CREATOR, not a user-space fallback. */
static inline void assert_kernel_fd(int fd)
{
	char path[64], target[64], line[128];
	int creator = 0;
	ssize_t n;
	FILE *f;

	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof target - 1);
	CHECK(n > 0);
	target[n] = 0;
	snprintf(path, sizeof path, "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	CHECK(f != NULL);
	while (fgets(line, sizeof line, f))
		if (strncmp(line, "creator:", 8) == 0)
			creator = 1;
	fclose(f);
	if (strcmp(target, "anon_inode:[signalfd]") != 0 || !creator) {
		fprintf(stderr, "fd %d is %s, not a creator-bound signalfd\n", fd, target);
		exit(1);
	}
}

/* The mask the kernel holds, from /proc/self/fdinfo. */
static inline uint64_t fdinfo_mask(int fd)
{
	char path[64], line[128];
	unsigned long long mask = 0;
	int found = 0;
	FILE *f;

	snprintf(path, sizeof path, "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	CHECK(f != NULL);
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "sigmask: %llx", &mask) == 1)
			found = 1;
	fclose(f);
	CHECK(found);
	return mask;
}

/* One-letter state of a task (R, S, T, Z...), from /proc. */
static inline char task_state(pid_t tid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return '?';
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

/* Wait until a task sleeps (say, in a blocking read of ours). */
#define WAIT_ASLEEP(tid) WAIT_UNTIL(task_state(tid) == 'S')

#endif
