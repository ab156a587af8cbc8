/* SPDX-License-Identifier: MIT */
/* Share mode in user space, the backend's entry points: thin wrappers over
 * the state machine (share_ctx.c) and the thread (share_thread.c). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend.h"
#include "share_ctx.h"
#include "share_thread.h"

/* A signal already pending that a share fd now takes is readable when the
 * call returns, as with a signalfd: the thread takes it first. */
static void take_if_pending(sigbits added)
{
	sigset_t pending;

	if (added && sigpending(&pending) == 0 && (share_bits(&pending) & added))
		share_take_now();
}

int sigfd_share_user_open(const sigset_t *mask, unsigned long flags)
{
	struct share_call call;
	int ep, fd = -1;

	/* Under the lock: a fork() in another thread meanwhile cannot hand
	 * the new pipe's write end to its child. */
	share_lock(&call);
	ep = share_serve();
	if (ep >= 0)
		fd = share_ctx_open(share_bits(mask), flags, ep);
	if (fd >= 0 && share_update() < 0) {
		int err = errno;
		share_ctx_undo_open(ep);
		share_update();
		close(fd);
		errno = err;
		fd = -1;
	}
	if (fd >= 0) {
		share_await_start();
		take_if_pending(share_bits(mask));
	}
	share_ctx_reap();
	share_unlock(&call, fd >= 0);
	return fd;
}

int sigfd_share_user_setmask(int fd, const sigset_t *mask)
{
	struct share_call call;
	struct stat st;
	sigbits old;
	int rc, fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fstat(fd, &st) < 0)
		return -1;
	/* A share fd is a pipe's read end: the write end, opened again
	 * through /proc, is the same pipe and no sigfd. */
	if (!S_ISFIFO(st.st_mode) || (fl & O_ACCMODE) != O_RDONLY)
		return SIGFD_NOT_MINE;
	share_lock(&call);
	rc = share_ctx_setmask(st.st_dev, st.st_ino, share_bits(mask), &old);
	/* Applied before we return: a signal just removed stays pending. A
	 * failure leaves the mask as it was. A thread whose descriptors the
	 * program closed is replaced first. */
	if (rc == 0 && share_update() < 0 && (share_serve() < 0 || share_update() < 0)) {
		int err = errno;
		share_ctx_setmask(st.st_dev, st.st_ino, old, &old);
		share_update();
		errno = err;
		rc = -1;
	} else if (rc == 1)
		rc = SIGFD_NOT_MINE;
	if (rc == 0) {
		share_await_start();
		take_if_pending(share_bits(mask) & ~old);
	}
	share_ctx_reap();
	share_unlock(&call, rc != -1);
	return rc;
}
