/* SPDX-License-Identifier: MIT */
/* The sender's name, checked against pid reuse (see sender.h). The name and
 * the start time come from one read of /proc/PID/stat, so they belong to
 * the same process even if the pid is taken again meanwhile. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sender.h"

unsigned long long sender_tick_now(void)
{
	static long hz;
	struct timespec t;

	if (!hz && (hz = sysconf(_SC_CLK_TCK)) <= 0)
		hz = 100;
	clock_gettime(CLOCK_BOOTTIME, &t);
	/* The kernel rounds a start time down to its tick the same way. */
	return (unsigned long long)t.tv_sec * (unsigned long long)hz +
	       (unsigned long long)t.tv_nsec / (1000000000ULL / (unsigned long long)hz);
}

/* /proc/PID/stat into buf: its length, or -1 with errno. */
static ssize_t read_stat(uint32_t pid, char *buf, size_t size)
{
	char path[40];
	ssize_t n;
	int fd, err;

	snprintf(path, sizeof path, "/proc/%" PRIu32 "/stat", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	while ((n = read(fd, buf, size - 1)) < 0 && errno == EINTR)
		;
	err = errno;
	close(fd);
	errno = err;
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

int sender_proc_is_ours(void)
{
	static int known, ours;
	char self[32];
	ssize_t n;

	if (!known) {
		n = readlink("/proc/self", self, sizeof self - 1);
		if (n > 0) {
			self[n] = '\0';
			ours = atol(self) == (long)getpid();
		}
		known = 1;
	}
	return ours;
}

enum sender_state sender_name(uint32_t pid, unsigned long long read_tick, char *buf, size_t size)
{
	char stat[1024], *open_paren, *close_paren, *p;
	unsigned long long start;

	if (!sender_proc_is_ours())
		return SENDER_UNKNOWN;
	if (read_stat(pid, stat, sizeof stat) < 0) {
		/* No such pid, where /proc itself works: gone. */
		if ((errno == ENOENT || errno == ESRCH) && access("/proc/self/stat", R_OK) == 0)
			return SENDER_GONE;
		return SENDER_UNKNOWN;
	}
	/* "PID (COMM) STATE PPID ...": COMM may hold ')' and spaces, so the
	 * last ')' ends it; starttime is the 20th field after it. */
	open_paren = strchr(stat, '(');
	close_paren = strrchr(stat, ')');
	if (!open_paren || !close_paren || close_paren < open_paren)
		return SENDER_UNKNOWN;
	p = close_paren + 1;
	for (int field = 3; field < 22 && p; field++)
		if ((p = strchr(p + 1, ' ')))
			p++;
	if (!p)
		return SENDER_UNKNOWN;
	errno = 0;
	start = strtoull(p, NULL, 10);
	if (errno)
		return SENDER_UNKNOWN;
	if (start > read_tick)
		return SENDER_GONE; /* a newer process with the same pid */
	size_t len = (size_t)(close_paren - open_paren - 1);
	if (len >= size)
		len = size - 1;
	memcpy(buf, open_paren + 1, len);
	buf[len] = '\0';
	return SENDER_NAMED;
}
