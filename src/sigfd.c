/* SPDX-License-Identifier: MIT */
/* Public entry points: argument checks shared by every backend, then
 * dispatch. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "sigfd.h"
#include "taken.h"

/* The library is built with hidden visibility: only these are exported. */
#define PUBLIC __attribute__((visibility("default")))

#define SIGFD_ALL_FLAGS (SIGFD_NONBLOCK | SIGFD_CLOEXEC | SIGFD_SHARE)

/* SIGKILL and SIGSTOP can never be taken through a descriptor: drop them
 * silently, as the 2003 patch and Linux signalfd do. The copy is built
 * signal by signal so that bits of the caller's sigset_t beyond the real
 * signals (which sigprocmask() leaves unwritten) never reach the backends,
 * and sets can be compared whole. */
static void catchable(sigset_t *out, const sigset_t *mask)
{
	int saved = errno; /* sigaddset() refuses the C library's own (EINVAL) */

	sigemptyset(out);
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP && sigismember(mask, sig) == 1)
			sigaddset(out, sig);
	errno = saved;
}

/* The share-mode backends in probe order: the first available one opens,
 * unless SIGFD_BACKEND names one (by its name, or the name it had first).
 * setmask asks each in turn whether the descriptor is its own, then local
 * mode's signalfd. */
static const struct share_backend {
	const char *name, *first_name;
	int (*available)(void);
	int (*open)(const sigset_t *mask, unsigned long flags);
	int (*setmask)(int fd, const sigset_t *mask); /* SIGFD_NOT_MINE */
} share_backends[] = {
	/* The kernel's own signalfd with SFD_CREATOR (kernel/'s series). */
	{ "sfd-creator", "native", sigfd_share_native_available,
	  sigfd_share_native_open, sigfd_share_native_setmask },
	/* The kernel module's /dev/sigfd (kmod/). */
	{ "module", "kernel", sigfd_share_kernel_available,
	  sigfd_share_kernel_open, sigfd_share_kernel_setmask },
	/* A forwarding thread in the creator (share_*.c): always there. */
	{ "thread", "user", NULL, sigfd_share_user_open,
	  sigfd_share_user_setmask },
};

#define SHARE_BACKENDS (sizeof share_backends / sizeof share_backends[0])

static bool chosen(const struct share_backend *b, const char *forced)
{
	if (forced && *forced)
		return strcmp(forced, b->name) == 0 ||
		       strcmp(forced, b->first_name) == 0;
	return !b->available || b->available();
}

static int share_open(const sigset_t *mask, unsigned long flags)
{
	const char *forced = getenv("SIGFD_BACKEND");

	for (size_t i = 0; i < SHARE_BACKENDS; i++)
		if (chosen(&share_backends[i], forced))
			return share_backends[i].open(mask, flags);
	errno = EINVAL; /* an unknown SIGFD_BACKEND */
	return -1;
}

/* A descriptor now takes set: children spawned with the helpers get these
 * signals back (spawn.c); SIGFD_DEBUG=1 names threads that would steal them. */
static void taken(int fd, const sigset_t *set)
{
	sigfd_note_taken(set);
	sigfd_debug_check(fd, set);
}

static int make(const sigset_t *mask, unsigned long flags)
{
	sigset_t set;

	if (!mask || (flags & ~SIGFD_ALL_FLAGS)) {
		errno = EINVAL;
		return -1;
	}
	catchable(&set, mask);
	int fd = flags & SIGFD_SHARE ? share_open(&set, flags & ~SIGFD_SHARE)
				     : sigfd_local_open(&set, flags);
	if (fd >= 0)
		taken(fd, &set);
	return fd;
}

static int setmask(int fd, const sigset_t *mask)
{
	sigset_t set;
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return -1; /* EBADF */
	/* An O_PATH descriptor is open, and never a sigfd: the calls below
	 * would say EBADF, as for a closed one. */
	if (!mask || (fl & O_PATH)) {
		errno = EINVAL;
		return -1;
	}
	catchable(&set, mask);
	int rc = SIGFD_NOT_MINE;
	for (size_t i = 0; i < SHARE_BACKENDS && rc == SIGFD_NOT_MINE; i++)
		rc = share_backends[i].setmask(fd, &set);
	if (rc == SIGFD_NOT_MINE)
		rc = sigfd_local_setmask(fd, &set);
	if (rc == 0)
		taken(fd, &set);
	return rc;
}

/* Neither call is a cancellation point: a request acting inside (at the
 * SIGFD_DEBUG check's open() or read(), say) would leak the new descriptor
 * or a directory stream. The caller's state is given back, the request
 * still pending for its next cancellation point. */
PUBLIC int sigfd(const sigset_t *mask, unsigned long flags)
{
	int cancel_state, fd;

	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel_state);
	fd = make(mask, flags);
	pthread_setcancelstate(cancel_state, NULL);
	return fd;
}

PUBLIC int sigfd_setmask(int fd, const sigset_t *mask)
{
	int cancel_state, rc;

	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel_state);
	rc = setmask(fd, mask);
	pthread_setcancelstate(cancel_state, NULL);
	return rc;
}
