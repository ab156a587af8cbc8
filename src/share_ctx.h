/* SPDX-License-Identifier: MIT */
/* The user-space share mode's state machine: the share fds of this process
 * and the rules that route a signal to one of them (share_ctx.c). Every
 * function here is called with the share lock held (share_thread.c).
 * The design is in docs/design.md. */
#ifndef SIGFD_SHARE_CTX_H
#define SIGFD_SHARE_CTX_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "sigfd.h"

/* Masks are one bit per signal: sigset_t cannot be compared or copied whole
 * (libc writes only the words the kernel uses). */
_Static_assert(NSIG <= 65, "the user-space share mode keeps signal masks in 64 bits");
typedef uint64_t sigbits;
struct share;
#define SIGBIT(sig) ((sigbits)1 << ((sig) - 1))
/* The kernel's first real-time signal: below it a pending signal coalesces. */
#define KERNEL_SIGRTMIN 32

/* Most records taken from the kernel at once (a bit each in a uint32_t). */
#define SHARE_BATCH 32

/* Numbers of the thread's table it keeps from the writers: 0-2 (left
 * empty), its own three descriptors, /proc/self/task and up to 8 threads'
 * status files (tasks.h), and four it opens for a moment (a listing and a
 * status file; a writer being received; the pair probe_truesize() uses). */
#define SHARE_THREAD_RESERVED 20

sigbits share_bits(const sigset_t *mask);
void share_set_of(sigset_t *set, sigbits bits);

/* A new share fd for mask goes in *reader (the caller's fd); its writer
 * waits in the caller's table until the caller has sent it to the thread
 * and the thread has adopted it (share_ctx_adopt_fd()). NULL and errno on
 * failure. */
struct share *share_ctx_open(sigbits mask, unsigned long flags, int *reader);
/* The writer waiting in the caller's table, to be sent to the thread. */
int share_ctx_handoff(const struct share *s);
/* In the thread: fd moved to base or above (above 2 if RLIMIT_NOFILE is
 * lower now), close-on-exec; -1 and errno, fd closed either way. */
int share_high_fd(int fd, int base);
/* Is fd still the socket it was (device and inode)? A program may close
 * a number of ours and open a file of its own there. */
bool share_same_socket(int fd, dev_t dev, ino_t ino);
/* In the thread: fd, received from a caller, is the writer of a share fd
 * waiting to be adopted: keep it at base or above and watch it in ep. Any
 * other fd is closed. */
void share_ctx_adopt_fd(int fd, int ep, int base);
/* In the thread: the share fds sent whose writers never arrived (no number
 * was free to receive them) fail with err. */
void share_ctx_refuse_waiting(int err);
/* Not adopted yet, nor refused: a thread that ended (exit() in another
 * thread) let it go before it could keep it. */
bool share_ctx_waiting(const struct share *s);
/* The caller, once the thread has looked: close its copy of the write end;
 * 0 if the thread adopted it, else -1 and errno, the share fd forgotten. */
int share_ctx_handed_over(struct share *s);
/* Set the mask of our share fd with this identity (the mask it had goes in
 * *old): 0; -1 with errno EPERM for a share fd of a process we were forked
 * from; 1 for one we do not know. */
int share_ctx_setmask(dev_t dev, ino_t ino, sigbits mask, sigbits *old);
/* The signals some share fd with room would take. */
sigbits share_ctx_wanted(void);
/* How many records can be taken now and surely written (0..SHARE_BATCH). */
unsigned share_ctx_batch(void);
/* Route and write n records, taken from the kernel in order, each to the
 * oldest share fd whose mask holds its signal and that has room. meant[i]
 * is 0, or for a record held since an earlier call, the share fd (by
 * creation number) it was meant for then: it goes there if no mask holds
 * its signal any longer, as the records already written there stay.
 * Returns the records (bit i for recs[i]) not written, and sets meant[i]
 * of each to the share fd it waits for room in, or to 0 when none takes
 * it: no mask holds its signal and the one it was meant for is gone. */
uint32_t share_ctx_deliver(const struct sigfd_siginfo *recs, unsigned n, uint64_t *meant, int ep);
/* The writer behind an epoll event: the reader has gone, or made room in a
 * share fd that had none. */
void share_ctx_writer_event(void *share, uint32_t events, int ep);
/* At exit: about the number of records all the writers can still take,
 * a batch a send. */
unsigned long share_ctx_room_for_exit(int ep);
/* Has a full share fd's writer not been made to wake the thread as room is
 * freed (epoll_ctl() failed)? Then the thread wakes every RECHECK_MS and
 * asks about every such share fd again, with recheck_unwatched(). */
bool share_ctx_unwatched(void);
void share_ctx_recheck_unwatched(int ep);
/* The writers the thread holds. */
unsigned share_ctx_writers(void);
/* Does no share fd need a thread? */
bool share_ctx_empty(void);
/* Free what the thread gave up, and the per-signal lists once no share fd
 * is left; the thread itself never calls the allocator. */
void share_ctx_reap(void);
/* In a process forked from the creator: remember the share fds, with those
 * the parent remembered, as an ancestor's (setmask on them: EPERM). The
 * writers are in the parent's thread's table, not here. */
void share_ctx_forget(void);
/* The thread is ending: close every writer. The share fds stay listed,
 * served by no thread. */
void share_ctx_close_all(int ep);
#endif
