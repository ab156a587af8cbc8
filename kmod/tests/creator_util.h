/* SPDX-License-Identifier: MIT */
/* What the module's tests and SFD_CREATOR's (kernel/kmod-tests) can share
 * beyond kmod_util.h: a creator in a child process, the signals queued to
 * our user (SigQ), the clock the printed figures use. Include it after
 * either backend's kmod_util.h (raw_create()). */
#ifndef SIGFD_CREATOR_UTIL_H
#define SIGFD_CREATOR_UTIL_H

#include <time.h>

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

/* The signals queued to our user now (SigQ's first field). */
static inline long sigq_used(void)
{
	char line[128];
	long used = -1, limit;
	FILE *f = fopen("/proc/self/status", "r");

	CHECK(f != NULL);
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "SigQ: %ld/%ld", &used, &limit) == 2)
			break;
	fclose(f);
	CHECK(used >= 0);
	return used;
}

/* The 28 legacy signals a creator can be sent and keep pending: every
 * catchable one but SIGCONT (a stop signal after it would discard it), into
 * set and as a module mask. */
static inline uint64_t legacy_mask(sigset_t *set)
{
	uint64_t mask = 0;

	sigemptyset(set);
	for (int sig = 1; sig < 32; sig++) {
		if (sig == SIGKILL || sig == SIGSTOP || sig == SIGCONT)
			continue;
		sigaddset(set, sig);
		mask |= sigbit(sig);
	}
	return mask;
}

#endif
