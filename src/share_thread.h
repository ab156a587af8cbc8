/* SPDX-License-Identifier: MIT */
/* The user-space share mode's forwarding thread and its lifecycle: the lock,
 * which process the state belongs to, fork, exit (share_thread.c). */
#ifndef SIGFD_SHARE_THREAD_H
#define SIGFD_SHARE_THREAD_H

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
/* Under the lock: make sure a forwarding thread runs; the epoll set that
 * new share fds join, or -1 and errno. */
int share_serve(void);
/* Under the lock: return once a thread just started runs our code (it may
 * drop the lock meanwhile). */
void share_await_start(void);
/* Under the lock: make the thread take what the share fds now want. */
int share_update(void);
/* Under the lock: return once the thread has taken a batch of what is
 * pending now (it may drop the lock meanwhile). */
void share_take_now(void);

#endif
