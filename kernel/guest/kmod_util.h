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

#include "proc_util.h"
#include "share_util.h"

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

#endif
