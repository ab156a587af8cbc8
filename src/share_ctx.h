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
#define SIGBIT(sig) ((sigbits)1 << ((sig) - 1))

/* Most records taken from the kernel at once: what one atomic pipe write
 * (PIPE_BUF bytes) holds. */
#define SHARE_BATCH 32

sigbits share_bits(const sigset_t *mask);
void share_set_of(sigset_t *set, sigbits bits);

/* A new share fd for mask: its reader end (the caller's fd), or -1 and
 * errno. Its writer joins the epoll set ep. */
int share_ctx_open(sigbits mask, unsigned long flags, int ep);
/* Take back the share fd share_ctx_open() made last. */
void share_ctx_undo_open(int ep);
/* Set the mask of our share fd with this identity (the mask it had goes in
 * *old): 0; -1 with errno EPERM for a share fd of a process we were forked
 * from; 1 for one we do not know. */
int share_ctx_setmask(dev_t dev, ino_t ino, sigbits mask, sigbits *old);
/* The signals some share fd with room would take. */
sigbits share_ctx_wanted(void);
/* How many records can be taken now and surely written (0..SHARE_BATCH). */
unsigned share_ctx_batch(void);
/* Route and write n records, taken from the kernel in order. Returns the
 * records (bit i for recs[i]) that found no share fd and must go back. */
uint32_t share_ctx_deliver(const struct sigfd_siginfo *recs, unsigned n, int ep);
/* The writer behind an epoll event: the reader may have gone or made room. */
void share_ctx_writer_event(void *share, uint32_t events, int ep);
/* A new thread's epoll set ep takes over the share fds of a thread given
 * up (its descriptors closed by the program): those whose writers the
 * program closed too are dropped. */
void share_ctx_adopt(int ep);
/* At exit: grow each pipe to /proc/sys/fs/pipe-max-size, so that what is
 * pending fits; the number of records all of them can still take. */
unsigned long share_ctx_grow_for_exit(int ep);
bool share_ctx_empty(void);
/* Free what the thread gave up; the thread itself never calls the allocator. */
void share_ctx_reap(void);
/* In a process forked from the creator: close the inherited writers and
 * remember the share fds, with those the parent remembered, as an
 * ancestor's (setmask on them: EPERM). */
void share_ctx_forget(void);

#endif
