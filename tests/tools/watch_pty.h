/* SPDX-License-Identifier: MIT */
/* For the tests that run sigfd-watch in a terminal of their own: a
 * pseudo-terminal, and a session led on it. */
#ifndef SIGFD_TESTS_WATCH_PTY_H
#define SIGFD_TESTS_WATCH_PTY_H

#include <fcntl.h>

#include "check.h"

/* A new pseudo-terminal's master (close-on-exec), its slave's path in
 * *slave; -1 where there is none (the caller reports SKIPPED, 77). */
static inline int pty_open(const char **slave)
{
	int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (master < 0) {
		printf("no pseudo-terminal: %s\n", strerror(errno));
		return -1;
	}
	CHECK(grantpt(master) == 0 && unlockpt(master) == 0);
	CHECK((*slave = ptsname(master)) != NULL);
	return master;
}

/* The calling process leads a new session whose controlling terminal is
 * slave, open as fd 0. */
static inline void lead_session_on(const char *slave)
{
	CHECK(setsid() > 0);
	int t = open(slave, O_RDWR);
	CHECK(t >= 0 && dup2(t, 0) == 0 && close(t) == 0);
}

/* sigfd-watch of the build under test. */
static inline void watch_path(char *path, size_t size)
{
	snprintf(path, size, "%s/bin/sigfd-watch", getenv("BUILD"));
}

#endif
