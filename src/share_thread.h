/* SPDX-License-Identifier: MIT */
/* The user-space share mode's forwarding thread and its lifecycle: the lock,
 * which process the state belongs to, fork, exit (share_thread.c). */
#ifndef SIGFD_SHARE_THREAD_H
#define SIGFD_SHARE_THREAD_H

#include <stdbool.h>

/* What a call into share mode saves and gives back: errno (a successful
 * call leaves it as it was) and the cancellation state (no cancellation
 * point may act while the lock is held). */
struct share_call {
	int saved_errno;
	int cancel_state;
};

/* Take the lock in a process that owns its state: state inherited from a
 * parent that forked without fork handlers is dropped first. */
void share_lock(struct share_call *call);
/* Release it; ok says whether errno is to be given back. */
void share_unlock(struct share_call *call, int ok);
/* Under the lock, with a share fd listed: make sure a forwarding thread
 * runs and has made its table (it may drop the lock meanwhile); 0, or -1
 * and errno. */
int share_serve(void);
/* Under the lock, the thread started: send it a share fd's writer, for it
 * to adopt at its next catch-up (share_sync()); 0, or -1 and errno
 * (EBADF: the program closed the library's end of the door). */
int share_hand_over(int writer);
/* Under the lock: a thread left with no share fd (the last one closed, or
 * the new one refused) is let end, and joined, its door closed. */
void share_end_idle(void);
/* Under the lock: does the thread's signalfd take what the share fds want? */
bool share_mask_current(void);
/* Under the lock: wake the thread and return once it has adopted the
 * writers sent, taken the mask the share fds want, and taken a batch of
 * what is pending now (it may drop the lock meanwhile). -1 and errno when
 * the thread cannot be woken (EBADF: the program closed the library's end
 * of the door). */
int share_sync(void);

#endif
