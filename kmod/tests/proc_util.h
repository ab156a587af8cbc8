/* SPDX-License-Identifier: MIT */
/* What the kernel backends' guest tests share (kmod_util.h, for the module
 * and, built with SIGFD_KMOD_AS_SFD_CREATOR, for SFD_CREATOR): signal
 * bits, the mask a descriptor holds, waiting for a task to sleep
 * (task_state(): check.h). */
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
	char line[128];
	unsigned long long mask = 0;

	CHECK(fdinfo_find(fd, "sigmask:", line, sizeof line));
	CHECK(sscanf(line, "sigmask: %llx", &mask) == 1);
	return mask;
}

/* Wait until a task sleeps (say, in a blocking read of ours). */
#define WAIT_ASLEEP(tid) WAIT_UNTIL(task_state(tid) == 'S')

#endif
