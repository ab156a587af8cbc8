/* SPDX-License-Identifier: MIT */
/* The outside suites' adapter (tests/tiers/outside_suites.sh): preloaded into a
 * program written by others, it turns the program's signalfd() into sigfd(),
 * so that program's own tests judge the library.
 *   signalfd(-1, mask, flags)  ->  sigfd(mask, flags mapped | mode)
 *   signalfd(fd, mask, flags)  ->  sigfd_setmask(fd, mask), then fd
 * SIGFD_SHIM_MODE=local (the default) or share picks the mode. When
 * SIGFD_SHIM_LOG names a file, each call appends one line to it, so the
 * test can show the program really went through sigfd.
 * The library's objects are linked in with -Wl,--wrap=signalfd: their own
 * signalfd() calls reach __wrap_signalfd, the real one, not this one. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "sigfd.h"

#define EXPORT __attribute__((visibility("default")))

typedef int signalfd_fn(int, const sigset_t *, int);

static signalfd_fn *next_signalfd;
static unsigned long mode_flag; /* 0 or SIGFD_SHARE */
static const char *mode_name = "local";

/* An unknown mode ends the program at once: a run that silently fell back
 * to another mode would pass for the wrong reason. */
__attribute__((constructor)) static void shim_init(void)
{
	const char *mode = getenv("SIGFD_SHIM_MODE");

	next_signalfd = (signalfd_fn *) dlsym(RTLD_NEXT, "signalfd");
	if (mode && strcmp(mode, "share") == 0) {
		mode_flag = SIGFD_SHARE;
		mode_name = "share";
	} else if (mode && *mode && strcmp(mode, "local") != 0) {
		fprintf(stderr, "signalfd_shim: SIGFD_SHIM_MODE must be local or share, not %s\n", mode);
		_exit(127);
	}
}

/* The library's own calls: the C library's signalfd, found past this
 * object. Hidden, so the library's references bind here and nowhere else. */
int __wrap_signalfd(int fd, const sigset_t *mask, int flags);
int __wrap_signalfd(int fd, const sigset_t *mask, int flags)
{
	if (!next_signalfd) {
		errno = ENOSYS;
		return -1;
	}
	return next_signalfd(fd, mask, flags);
}

/* One line a call: pid, mode, the arguments, the result and errno. The
 * file is opened and closed each time, so the program never sees an extra
 * descriptor of ours. errno is the caller's again afterwards. */
static void log_call(int fd, int flags, int ret, int err)
{
	const char *path = getenv("SIGFD_SHIM_LOG");
	char line[160];

	if (!path || !*path)
		return;
	int n = snprintf(line, sizeof line, "pid=%ld mode=%s call=%s fd=%d flags=%#x ret=%d errno=%d\n",
			 (long) getpid(), mode_name, fd == -1 ? "create" : "setmask", fd,
			 (unsigned) flags, ret, ret < 0 ? err : 0);
	int lfd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (lfd >= 0) {
		if (n > 0 && write(lfd, line, (size_t) n) < 0) {
			/* Nothing to do: the test sees the line missing. */
		}
		close(lfd);
	}
	errno = err;
}

EXPORT int signalfd(int fd, const sigset_t *mask, int flags)
{
	unsigned long sflags = mode_flag;
	int ret;

	/* What signalfd4() accepts, and EINVAL for anything else, checked
	 * before the descriptor as the kernel does. */
	if (flags & ~(SFD_NONBLOCK | SFD_CLOEXEC)) {
		errno = EINVAL;
		ret = -1;
	} else if (fd == -1) {
		if (flags & SFD_NONBLOCK)
			sflags |= SIGFD_NONBLOCK;
		if (flags & SFD_CLOEXEC)
			sflags |= SIGFD_CLOEXEC;
		ret = sigfd(mask, sflags);
	} else {
		ret = sigfd_setmask(fd, mask) == 0 ? fd : -1;
	}
	log_call(fd, flags, ret, errno);
	return ret;
}
