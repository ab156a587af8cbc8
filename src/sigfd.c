/* SPDX-License-Identifier: MIT */
/* Public entry points: argument checks shared by every backend, then
 * dispatch. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
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
	sigemptyset(out);
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP && sigismember(mask, sig) == 1)
			sigaddset(out, sig);
}

/* SIGFD_BACKEND=native, =kernel or =user forces a share-mode backend; by
 * default the kernel's own SFD_CREATOR is used when the running kernel has
 * it, then the kernel module when /dev/sigfd is there, then user space. */
static int share_open(const sigset_t *mask, unsigned long flags)
{
	const char *forced = getenv("SIGFD_BACKEND");

	if (forced && strcmp(forced, "native") == 0)
		return sigfd_share_native_open(mask, flags);
	if (forced && strcmp(forced, "kernel") == 0)
		return sigfd_share_kernel_open(mask, flags);
	if (forced && strcmp(forced, "user") == 0)
		return sigfd_share_user_open(mask, flags);
	if (forced && *forced) {
		errno = EINVAL;
		return -1;
	}
	if (sigfd_share_native_available())
		return sigfd_share_native_open(mask, flags);
	if (sigfd_share_kernel_available())
		return sigfd_share_kernel_open(mask, flags);
	return sigfd_share_user_open(mask, flags);
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
	int rc = sigfd_share_native_setmask(fd, &set);
	if (rc == SIGFD_NOT_MINE)
		rc = sigfd_share_kernel_setmask(fd, &set);
	if (rc == SIGFD_NOT_MINE)
		rc = sigfd_share_user_setmask(fd, &set);
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
