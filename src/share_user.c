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

int sigfd_share_user_open(const sigset_t *mask, unsigned long flags)
{
	struct share_call call;
	struct share *s;
	int fd = -1, err = 0;

	/* Under the lock: a fork() in another thread meanwhile cannot hand
	 * the new share fd's writer to its child. The thread adopts the
	 * writer, and takes any signal of the mask already pending, so that it
	 * is readable when the call returns, as with a signalfd. */
	share_lock(&call);
	s = share_ctx_open(share_bits(mask), flags, &fd);
	if (!s) {
		share_unlock(&call, 0);
		return -1;
	}
	/* Twice at most: a thread ending for exit() in another thread lets
	 * the share fd go, and the next one adopts it. */
	for (int tries = 0; tries < 2 && share_ctx_waiting(s); tries++)
		if (share_serve() < 0 || share_hand_over(share_ctx_handoff(s)) < 0 ||
		    share_sync() < 0) {
			err = errno;
			break;
		}
	if (share_ctx_handed_over(s) < 0) {
		err = err ? err : errno;
		close(fd);
		fd = -1;
		if (share_ctx_empty())
			share_end_idle();
	}
	share_ctx_reap();
	share_unlock(&call, fd >= 0);
	if (fd < 0)
		errno = err;
	return fd;
}

/* Signals of bits pending now: the thread must take them before we return. */
static bool pending_among(sigbits bits)
{
	sigset_t pending;

	return bits && sigpending(&pending) == 0 && (share_bits(&pending) & bits);
}

int sigfd_share_user_setmask(int fd, const sigset_t *mask)
{
	struct share_call call;
	struct stat st;
	sigbits old, bits = share_bits(mask);
	int rc;

	if (fstat(fd, &st) < 0)
		return -1;
	/* A share fd is a socket: one of ours if its identity is listed. */
	if (!S_ISSOCK(st.st_mode))
		return SIGFD_NOT_MINE;
	share_lock(&call);
	rc = share_ctx_setmask(st.st_dev, st.st_ino, bits, &old);
	/* Applied before we return: a signal just removed stays pending, one
	 * just added and pending is readable. A failure leaves the mask as it
	 * was. */
	if (rc == 0 && (!share_mask_current() || pending_among(bits & ~old)) && share_sync() < 0) {
		int err = errno;
		share_ctx_setmask(st.st_dev, st.st_ino, old, &old);
		errno = err;
		rc = -1;
	} else if (rc == 1)
		rc = SIGFD_NOT_MINE;
	share_ctx_reap();
	share_unlock(&call, rc != -1);
	return rc;
}
