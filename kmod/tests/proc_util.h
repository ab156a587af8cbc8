/* SPDX-License-Identifier: MIT */
/* What the kernel backends' guest tests read from /proc: the mask a
 * descriptor holds and the state of a task (kmod_util.h, for the module and
 * for SFD_CREATOR, kernel/guest/kmod_util.h). */
#ifndef SIGFD_PROC_UTIL_H
#define SIGFD_PROC_UTIL_H

#include <stdint.h>

#include "share_util.h"

static inline uint64_t bit(int sig)
{
	return (uint64_t)1 << (sig - 1);
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
