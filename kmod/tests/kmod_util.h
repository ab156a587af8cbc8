/* SPDX-License-Identifier: MIT */
/* Helpers for the module's own tests (run in the guest only): the raw
 * interface, and waiting until another process is asleep in the kernel. */
#ifndef SIGFD_KMOD_UTIL_H
#define SIGFD_KMOD_UTIL_H

#include <fcntl.h>
#include <sched.h>
#include <stdint.h>

#include "../sigfd_uapi.h"
#include "share_util.h"

static inline int raw_create(uint64_t mask, uint32_t flags)
{
	struct sigfd_params p = { .size = sizeof p, .flags = flags, .mask = mask };
	int dev = open("/dev/sigfd", O_RDONLY | O_CLOEXEC);
	CHECK(dev >= 0);
	int fd = ioctl(dev, SIGFD_IOC_CREATE, &p);
	int err = errno;
	close(dev);
	errno = err;
	return fd;
}

static inline uint64_t bit(int sig)
{
	return (uint64_t)1 << (sig - 1);
}

/* The descriptor really comes from the module, not a user-space fallback. */
static inline void assert_kernel_fd(int fd)
{
	char path[64], target[64];
	ssize_t n;

	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof target - 1);
	CHECK(n > 0);
	target[n] = 0;
	if (strcmp(target, SIGFD_ANON_NAME) != 0) {
		fprintf(stderr, "fd %d is %s, not a kernel sigfd\n", fd, target);
		exit(1);
	}
}

/* The mask the module holds, from /proc/self/fdinfo. */
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
