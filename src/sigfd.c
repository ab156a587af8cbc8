/* Public entry points: argument checks shared by every backend, then
 * dispatch. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>

#include "backend.h"
#include "sigfd.h"

/* The library is built with hidden visibility: only these are exported. */
#define PUBLIC __attribute__((visibility("default")))

#define SIGFD_ALL_FLAGS (SIGFD_NONBLOCK | SIGFD_CLOEXEC | SIGFD_SHARE)

/* SIGKILL and SIGSTOP can never be taken through a descriptor: drop them
 * silently, as the 2003 patch and Linux signalfd do. */
static void catchable(sigset_t *out, const sigset_t *mask)
{
	*out = *mask;
	sigdelset(out, SIGKILL);
	sigdelset(out, SIGSTOP);
}

PUBLIC int sigfd(const sigset_t *mask, unsigned long flags)
{
	sigset_t set;

	if (!mask || (flags & ~SIGFD_ALL_FLAGS)) {
		errno = EINVAL;
		return -1;
	}
	catchable(&set, mask);
	if (flags & SIGFD_SHARE) {
		errno = ENOSYS;
		return -1;
	}
	return sigfd_local_open(&set, flags);
}

PUBLIC int sigfd_setmask(int fd, const sigset_t *mask)
{
	sigset_t set;

	if (fcntl(fd, F_GETFD) < 0)
		return -1; /* EBADF */
	if (!mask) {
		errno = EINVAL;
		return -1;
	}
	catchable(&set, mask);
	return sigfd_local_setmask(fd, &set);
}
