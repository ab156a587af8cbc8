/* SPDX-License-Identifier: MIT */
/* State shared by the user-space share mode's two halves: share_user.c (the
 * API side: open, setmask, fork) and share_forward.c (the forwarding thread).
 *
 * Design. Each share fd is one end of an AF_UNIX stream socketpair; the
 * creator keeps the other end (the writer). One thread per creating process,
 * with every signal blocked, takes the creator's process-directed signals
 * from a signalfd of its own and writes each as one 128-byte record into the
 * writer of a share fd whose mask holds it. Whoever holds the share fd reads
 * the creator's signals. The writers are close-on-exec and are closed in a
 * forked child, so when the creator exits or execs every reader sees end of
 * file after the records already written.
 *
 * Nothing is lost and nothing is buffered without bound: the thread takes a
 * signal from the kernel only when some share fd for it has room (fewer than
 * SHARE_CAPACITY unread records); otherwise the signal stays pending in the
 * creator's kernel queue, where sigqueue() meets RLIMIT_SIGPENDING.
 *
 * Counting unread records. The writer's TIOCOUTQ is the memory of the socket
 * buffers not yet wholly read, and each buffer's cost depends only on how
 * many records it holds (measured once, for 1 to SHARE_RUN). The thread
 * remembers the record count of every buffer it wrote, so the newest
 * buffers whose costs add up to TIOCOUTQ are the ones still unread. A
 * standard signal is always written in a buffer of its own, so whether its
 * record is still unread is known exactly; then a new instance coalesces
 * into it, as a pending signal does in the kernel. Runs of real-time
 * records share a buffer: writing and reading them then costs a fraction of
 * one buffer per record.
 *
 * The thread waits in epoll: for its signalfd, a wake-up eventfd and every
 * writer (hang-up: the last reader is gone). While a share fd is full its
 * writer is also watched, edge-triggered, for EPOLLOUT: the kernel signals
 * it each time the reader frees a buffer, since the send buffer is sized to
 * stay writable. */
#ifndef SIGFD_SHARE_USER_H
#define SIGFD_SHARE_USER_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "sigfd.h"

/* Most unread records a share fd may hold; the rest wait in the kernel queue. */
#define SHARE_CAPACITY 64
/* Records taken from the kernel in one read. */
#define SHARE_BATCH 32
/* Most real-time records written as one socket buffer. */
#define SHARE_RUN 16

/* Masks are kept as one bit per signal: sigset_t cannot be compared or
 * copied whole (libc writes only the words the kernel uses). */
_Static_assert(NSIG <= 65, "the user-space share mode keeps signal masks in 64 bits");
typedef uint64_t sigbits;
#define SIGBIT(sig) ((sigbits)1 << ((sig) - 1))

struct share {
	struct share *next;
	int writer;           /* our end of the socketpair, close-on-exec */
	dev_t dev;            /* identity of the reader end, for setmask */
	ino_t ino;
	sigbits mask;
	bool registered;      /* the writer is in the thread's epoll set */
	bool watching_room;   /* ... with EPOLLOUT, because the fd is full */
	unsigned capacity;    /* unread records it may hold, <= SHARE_CAPACITY */
	unsigned written;     /* records routed to it so far */
	unsigned unread;      /* upper bound on unread records, exact after refresh */
	unsigned unsent;      /* routed in the current batch, not yet written */
	unsigned char signo[SHARE_CAPACITY]; /* signal of record k at [k % SHARE_CAPACITY] */
	/* Record counts of the buffers written and not known to be read, oldest
	 * first, from buf_records[buf_first]. */
	unsigned char buf_records[SHARE_CAPACITY];
	unsigned buf_first, buf_count;
};

struct share_state {
	pthread_mutex_t lock;  /* guards everything below */
	struct share *list;    /* in creation order */
	bool running;          /* a forwarding thread serves the list */
	bool stopping;         /* the process is exiting: the thread must end */
	bool joinable;         /* thread has run and is not joined yet */
	pthread_t thread;
	int ep;                /* the thread's epoll set */
	int wake;              /* eventfd that tells the thread to stop */
	int sfd;               /* the thread's signalfd */
	sigbits taking;        /* the mask sfd has now */
	struct share *dead;    /* shares it removed, to be freed (it never frees) */
	/* TIOCOUTQ bytes of a socket buffer holding k records, k <= SHARE_RUN;
	 * buf_cost[1] == 0 until measured. */
	unsigned buf_cost[SHARE_RUN + 1];
};

extern struct share_state share_state;

/* Under the lock: give sfd the union of the masks of share fds with room. */
int share_update_mask(void);
/* Under the lock: start the forwarding thread, or show it new share fds. */
int share_serve(void);
/* Called with the lock held, returns with it held: end the thread, wait for it. */
void share_stop(void);
/* Under the lock: free the shares the thread has given up. */
void share_reap(void);

#endif
