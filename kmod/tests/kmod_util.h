/* SPDX-License-Identifier: MIT */
/* Helpers for the module's own tests (run in the guest only): the raw
 * interface, the check that a descriptor is the module's, a creator in a
 * child process, the clock the figures use; what they read from /proc is
 * in proc_util.h. */
#ifndef SIGFD_KMOD_UTIL_H
#define SIGFD_KMOD_UTIL_H

#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <time.h>

#include "../sigfd_uapi.h"
#include "proc_util.h"
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

/* A child process that creates a descriptor of @mask (none if 0), hands it
 * over and exits when told: its pid; the descriptor in *fd (or -1), and in
 * *go the pipe end on which put_byte() tells it to exit (close it after). */
static inline pid_t fork_creator(uint64_t mask, uint32_t flags, int *fd, int *go)
{
	int link[2], go_pipe[2];
	pid_t child;

	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, link) == 0);
	CHECK(pipe2(go_pipe, O_CLOEXEC) == 0);
	child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		if (mask) {
			int f = raw_create(mask, flags);

			CHECK(f >= 0);
			send_fd(link[1], f);
		}
		get_byte(go_pipe[0]);
		_exit(0);
	}
	*fd = mask ? recv_fd(link[0]) : -1;
	close_pair(link);
	CHECK(close(go_pipe[0]) == 0);
	*go = go_pipe[1];
	return child;
}

/* Microseconds on CLOCK_MONOTONIC, for the figures tests print. */
static inline double now_us(void)
{
	struct timespec ts;

	CHECK(clock_gettime(CLOCK_MONOTONIC, &ts) == 0);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

#endif
