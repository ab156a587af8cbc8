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
 * creator's kernel queue, where sigqueue() meets RLIMIT_SIGPENDING. Each
 * record is written as its own socket buffer, so the writer's unsent-bytes
 * count (TIOCOUTQ) divided by one buffer's size is exactly the number of
 * records not yet read; that gives both the room and, for a standard signal,
 * whether a record for it is still unread (then the new instance coalesces
 * into it, as a pending signal does in the kernel). */
#ifndef SIGFD_SHARE_USER_H
#define SIGFD_SHARE_USER_H

#include <poll.h>
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
	unsigned capacity;    /* unread records it may hold, <= SHARE_CAPACITY */
	unsigned written;     /* records routed to it so far */
	unsigned unread;      /* upper bound on unread records, exact after refresh */
	unsigned unsent;      /* routed in the current batch, not yet written */
	unsigned char signo[SHARE_CAPACITY]; /* signal of record k at [k % SHARE_CAPACITY] */
};

/* The thread's poll set: the signalfd, the wake-up eventfd, then one entry
 * per share fd, with the share each entry is for. Allocated by callers of
 * the API, never by the thread, which must not touch the allocator: its
 * first call would give it a malloc arena of its own (64 MiB reserved). */
struct pollset {
	struct pollset *retired_next;
	size_t slots;
	struct share **who;
	struct pollfd pfd[];
};

struct share_state {
	pthread_mutex_t lock;  /* guards everything below */
	struct share *list;    /* in creation order */
	bool running;          /* a forwarding thread serves the list */
	bool stopping;         /* the process is exiting: the thread must end */
	bool joinable;         /* thread has run and is not joined yet */
	pthread_t thread;
	int wake;              /* eventfd that wakes the thread when the list or a mask changes */
	int sfd;               /* the thread's signalfd */
	sigbits taking;        /* the mask sfd has now */
	struct pollset *pollset;      /* the one the thread uses */
	struct pollset *pollset_next; /* a bigger one for it to take up */
	struct pollset *retired;      /* ones it gave up, to be freed */
	struct share *dead;           /* shares it removed, to be freed */
	unsigned record_cost;  /* TIOCOUTQ bytes that one unread record accounts for */
};

extern struct share_state share_state;

/* Under the lock: give sfd the union of the masks of share fds with room. */
int share_update_mask(void);
/* Under the lock: start the forwarding thread, or wake it. */
int share_start_or_wake(void);
/* Called with the lock held, returns with it held: end the thread, wait for it. */
void share_stop(void);
/* Under the lock: free what the thread has given up. With all = true (no
 * thread running), everything the poll sets and dead shares hold. */
void share_reap(bool all);
/* Under the lock: make room in the poll set for n share fds. */
int share_reserve(size_t n);
/* Under the lock: the exact number of unread records of s (one ioctl). */
void share_refresh(struct share *s);

#endif
