/* SPDX-License-Identifier: MIT */
/* The user-space share mode's state machine: each share fd is one end of a
 * connected AF_UNIX stream socket, shut for writing, whose other end only
 * the creator's forwarding thread holds. A socket, unlike a pipe, cannot be
 * opened again through /proc, so no holder can write into a share fd or
 * keep its end from coming. The kernel keeps the state exactly: SIOCOUTQ
 * is what the unread records still charge to the writer, each send its own
 * socket buffer of a size measured once (probe_truesize()). From these this
 * file decides where a signal goes, whether it coalesces into a record
 * still unread, and how many can be taken. See docs/design.md. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "share_ctx.h"
#include "tasks.h"

#define RECORD sizeof(struct sigfd_siginfo)
/* linux/sockios.h's SIOCOUTQ, which musl's headers do not reach. */
#ifndef SIOCOUTQ
#define SIOCOUTQ TIOCOUTQ
#endif

struct share {
	struct share *next, *prev; /* prev: in the live list only */
	uint64_t seq;     /* creation order: routing prefers the oldest */
	bool removed;     /* let go by the thread: an event for it is stale */
	int writer;       /* the writing end in the thread's table, or -1 */
	int handoff;      /* the writing end in the caller's table until adopted, or -1 */
	int error;        /* why adoption failed, or 0 */
	bool tried;       /* the thread has tried to adopt it */
	dev_t dev;        /* identity of the share fd, for setmask */
	ino_t ino;
	dev_t wdev;       /* identity of the writing end, for adoption */
	ino_t wino;
	sigbits mask;
	unsigned room;    /* records that surely fit now; 0: wait for room (set_room()) */
	bool watching;    /* its writer wakes the thread as room is freed (watch_room()) */
	int sndbuf;       /* what the writing end may have charged at once */
	uint64_t charged; /* what everything sent so far charged, in all */
	/* charged once the send holding the newest record of each standard
	 * signal was made, or 0. */
	uint64_t last_end[KERNEL_SIGRTMIN];
};

/* What the kernel charges a send of n records (n = 1..SHARE_BATCH), and
 * the most it charges per record, whatever the send: measured once. */
static unsigned truesize[SHARE_BATCH + 1];
static unsigned per_record;

static struct share *live;    /* our share fds, in creation order */
static struct share *live_last;
static struct share *dead;    /* removed by the thread, freed by share_ctx_reap() */
static struct share *foreign; /* the share fds of the process we were forked from */
static unsigned writers_open; /* write ends in the thread's table */
static bool some_unwatched;   /* a full share fd's writer could not be watched */
static uint64_t opened;       /* share fds made: seq counts from 1, 0 is none */
/* The first share fd that may wait to be adopted, or NULL: adoption looks
 * from there, not at every share fd. */
static struct share *adopt_from;

/* What a signal costs must not grow with the share fds that do not take
 * it, so the thread keeps, beside the list, per signal: the share fds
 * whose mask holds it, oldest first (grown by the entry points, since the
 * thread never calls the allocator; the thread only takes some out), and
 * how many of them have room; and per amount of room, how many share fds
 * have it. */
struct share_vec {
	struct share **v;
	unsigned n, cap;
};
static struct share_vec by_sig[64];
static unsigned wanting[64];
static unsigned by_room[SHARE_BATCH + 1];

/* Room for one more share fd in the lists of the signals of bits: 0, or -1
 * and ENOMEM. Never shrunk, so what was there once always fits again. */
static int by_sig_reserve(sigbits bits)
{
	for (; bits; bits &= bits - 1) {
		struct share_vec *v = &by_sig[__builtin_ctzll(bits)];

		if (v->n == v->cap) {
			unsigned cap = v->cap ? 2 * v->cap : 8;
			struct share **grown = realloc(v->v, cap * sizeof *grown);

			if (!grown)
				return -1;
			v->v = grown;
			v->cap = cap;
		}
	}
	return 0;
}

/* Put s in the lists of the signals of bits, in creation order (room
 * reserved). */
static void by_sig_add(struct share *s, sigbits bits)
{
	for (; bits; bits &= bits - 1) {
		struct share_vec *v = &by_sig[__builtin_ctzll(bits)];
		unsigned at = v->n;

		while (at > 0 && v->v[at - 1]->seq > s->seq)
			at--;
		memmove(v->v + at + 1, v->v + at, (v->n - at) * sizeof *v->v);
		v->v[at] = s;
		v->n++;
	}
}

static void by_sig_remove(struct share *s, sigbits bits)
{
	for (; bits; bits &= bits - 1) {
		struct share_vec *v = &by_sig[__builtin_ctzll(bits)];

		for (unsigned i = 0; i < v->n; i++)
			if (v->v[i] == s) {
				memmove(v->v + i, v->v + i + 1, (v->n - i - 1) * sizeof *v->v);
				v->n--;
				break;
			}
	}
}

static void count_wanting(sigbits bits, int by)
{
	for (; bits; bits &= bits - 1)
		wanting[__builtin_ctzll(bits)] += (unsigned)by;
}

/* Every change of a share fd's room goes through here. */
static void set_room(struct share *s, unsigned room)
{
	if (room == s->room)
		return;
	if (!s->room)
		count_wanting(s->mask, 1);
	else if (!room)
		count_wanting(s->mask, -1);
	by_room[s->room]--;
	by_room[room]++;
	s->room = room;
}

static void set_mask(struct share *s, sigbits mask)
{
	if (s->room) {
		count_wanting(s->mask, -1);
		count_wanting(mask, 1);
	}
	by_sig_remove(s, s->mask & ~mask);
	by_sig_add(s, mask & ~s->mask);
	s->mask = mask;
}

/* Take s off the list of live share fds. */
static void unlink_live(struct share *s)
{
	if (s->prev)
		s->prev->next = s->next;
	else
		live = s->next;
	if (s->next)
		s->next->prev = s->prev;
	else
		live_last = s->prev;
	if (adopt_from == s)
		adopt_from = live;
	by_sig_remove(s, s->mask);
	by_room[s->room]--;
	if (s->room)
		count_wanting(s->mask, -1);
}

sigbits share_bits(const sigset_t *mask)
{
	sigbits bits = 0;

	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(mask, sig) == 1)
			bits |= SIGBIT(sig);
	return bits;
}

void share_set_of(sigset_t *set, sigbits bits)
{
	sigemptyset(set);
	for (int sig = 1; sig < NSIG; sig++)
		if (bits & SIGBIT(sig))
			sigaddset(set, sig);
}

/* Close both ends of a pair that could not become a share fd, errno kept. */
static void close_both(const int sv[2])
{
	int err = errno;

	close(sv[0]);
	close(sv[1]);
	errno = err;
}

struct share *share_ctx_open(sigbits mask, unsigned long flags, int *reader)
{
	struct share *s = calloc(1, sizeof *s);
	struct stat st, wst;
	int sv[2];

	if (!s)
		return NULL;
	if (by_sig_reserve(mask) < 0) {
		free(s);
		errno = ENOMEM;
		return NULL;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		free(s);
		return NULL;
	}
	/* The share fd is shut for writing: what a holder writes fails
	 * (EPIPE) instead of filling the other end. */
	if (shutdown(sv[0], SHUT_WR) < 0 || fstat(sv[0], &st) < 0 || fstat(sv[1], &wst) < 0 ||
	    ((flags & SIGFD_NONBLOCK) && fcntl(sv[0], F_SETFL, O_NONBLOCK) < 0) ||
	    (!(flags & SIGFD_CLOEXEC) && fcntl(sv[0], F_SETFD, 0) < 0)) {
		close_both(sv);
		free(s);
		return NULL;
	}
	s->writer = -1;
	s->handoff = sv[1];
	s->dev = st.st_dev;
	s->ino = st.st_ino;
	s->wdev = wst.st_dev;
	s->wino = wst.st_ino;
	s->seq = ++opened;
	by_room[0]++;
	set_mask(s, mask);
	s->prev = live_last;
	if (live_last)
		live_last->next = s;
	else
		live = s;
	live_last = s;
	if (!adopt_from)
		adopt_from = s;
	*reader = sv[0];
	return s;
}

int share_ctx_handoff(const struct share *s)
{
	return s->handoff;
}

/* fd moved to base or above (to 3 or above when RLIMIT_NOFILE was lowered
 * below base since; and when low is set, when nothing is free from base
 * up); -1 and errno, fd closed either way. */
static int move_fd(int fd, int base, bool low)
{
	int moved;

	if (fd < 0)
		return -1;
	moved = fcntl(fd, F_DUPFD_CLOEXEC, base);
	if (moved < 0 && (errno == EINVAL || (low && errno == EMFILE)))
		moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	close(fd);
	return moved;
}

int share_high_fd(int fd, int base)
{
	return move_fd(fd, base, false);
}

/* Are the numbers from base up all taken by the thread's own descriptors
 * (its reserve) and the writers? Then a writer goes below base. */
static bool above_base_full(int base)
{
	struct rlimit lim;

	return getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY &&
	       writers_open + SHARE_THREAD_RESERVED + (rlim_t)base >= lim.rlim_cur;
}

/* Is there a number free for one more writer, the thread's reserve kept?
 * RLIMIT_NOFILE is asked each time: the program may change it. */
static bool room_for_writer(void)
{
	struct rlimit lim;

	return getrlimit(RLIMIT_NOFILE, &lim) < 0 || lim.rlim_cur == RLIM_INFINITY ||
	       writers_open + SHARE_THREAD_RESERVED < lim.rlim_cur;
}

/* What the writer has charged and not yet had back: the records the reader
 * has not read whole. */
static int charged_now(const struct share *s, int *outq)
{
	return ioctl(s->writer, SIOCOUTQ, outq);
}

/* Measure what a send of n records charges, for each n, on a pair of our
 * own nobody reads but us: 0, or -1 and errno. The same kernel charges a
 * share fd's writer the same. */
static int probe_truesize(int base)
{
	static const struct sigfd_siginfo zero[SHARE_BATCH];
	unsigned most = 0;
	int sv[2], err = 0;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	/* Away from 0-2, which the thread leaves empty. */
	sv[0] = move_fd(sv[0], base, true);
	sv[1] = move_fd(sv[1], base, true);
	for (unsigned n = 1; n <= SHARE_BATCH && !err; n++) {
		char drain[sizeof zero];
		int outq;

		if (sv[0] < 0 || sv[1] < 0 ||
		    send(sv[1], zero, n * RECORD, MSG_DONTWAIT | MSG_NOSIGNAL) != (ssize_t)(n * RECORD) ||
		    ioctl(sv[1], SIOCOUTQ, &outq) < 0 || outq <= 0 ||
		    recv(sv[0], drain, sizeof drain, MSG_DONTWAIT) != (ssize_t)(n * RECORD))
			err = errno ? errno : EIO;
		else {
			truesize[n] = (unsigned)outq;
			if ((truesize[n] + n - 1) / n > most)
				most = (truesize[n] + n - 1) / n;
		}
	}
	if (sv[0] >= 0)
		close(sv[0]);
	if (sv[1] >= 0)
		close(sv[1]);
	if (err) {
		errno = err;
		return -1;
	}
	per_record = most;
	return 0;
}

/* The records that surely fit now: each send goes through while what is
 * charged is under sndbuf. */
static unsigned room_now(const struct share *s)
{
	int outq;
	unsigned room;

	if (charged_now(s, &outq) < 0 || outq >= s->sndbuf)
		return 0;
	room = (unsigned)(s->sndbuf - outq - 1) / per_record + 1;
	return room < SHARE_BATCH ? room : SHARE_BATCH;
}

/* A writer wakes the thread (EPOLLOUT, edge-triggered) as the reader frees
 * room only while its share fd has none: woken by every record read, the
 * thread would pay a switch per signal. Asked for after the kernel said
 * there is no room, EPOLL_CTL_MOD reports at once room freed meanwhile.
 * Hang-ups wake it always. A writer that cannot be watched has its room
 * asked for again every time the thread wakes, and it wakes often
 * (share_ctx_unwatched()). */
static void watch_room(struct share *s, int ep)
{
	bool want = s->room == 0;
	struct epoll_event ev = { .events = EPOLLHUP | EPOLLERR, .data.ptr = s };

	if (want == s->watching)
		return;
	if (want)
		ev.events |= EPOLLOUT | EPOLLET;
	if (epoll_ctl(ep, EPOLL_CTL_MOD, s->writer, &ev) == 0)
		s->watching = want;
	else if (want)
		some_unwatched = true;
}

/* The most a socket may be given to send without privilege: twice
 * /proc/sys/net/core/wmem_max, as the kernel doubles what it is asked for;
 * 0 when it cannot be read. Read once, without the allocator: the thread
 * asks. */
static int sndbuf_max(void)
{
	static int max = -1;
	char buf[32];
	ssize_t n = -1;
	long asked;
	int fd;

	if (max >= 0)
		return max;
	fd = open("/proc/sys/net/core/wmem_max", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, sizeof buf - 1);
		close(fd);
	}
	if (n <= 0)
		return max = 0;
	buf[n] = 0;
	asked = strtol(buf, NULL, 10);
	return max = asked > 0 && asked <= INT_MAX / 2 ? (int)(2 * asked) : 0;
}

/* Give s's writer the most room allowed without privilege (more than the
 * default's 278 records at a record a send), and learn what it has. */
static int grow_sndbuf(struct share *s)
{
	socklen_t len = sizeof s->sndbuf;
	int max = sndbuf_max(), ask = max / 2;

	if (getsockopt(s->writer, SOL_SOCKET, SO_SNDBUF, &s->sndbuf, &len) < 0)
		return -1;
	if (s->sndbuf < max)
		(void)setsockopt(s->writer, SOL_SOCKET, SO_SNDBUF, &ask, sizeof ask);
	return getsockopt(s->writer, SOL_SOCKET, SO_SNDBUF, &s->sndbuf, &len);
}

void share_ctx_adopt_fd(int fd, int ep, int base)
{
	struct epoll_event ev = { .events = EPOLLHUP | EPOLLERR };
	struct share *s = adopt_from;
	struct stat st;

	if (fstat(fd, &st) < 0 || !S_ISSOCK(st.st_mode)) {
		close(fd);
		return;
	}
	while (s && !(share_ctx_waiting(s) && s->handoff >= 0 && s->wdev == st.st_dev &&
		      s->wino == st.st_ino))
		s = s->next;
	if (!s) {
		close(fd); /* not one of ours waiting: stale, or sent by another process */
		return;
	}
	s->tried = true;
	if (!room_for_writer()) {
		close(fd);
		s->error = EMFILE;
		return;
	}
	ev.data.ptr = s;
	s->writer = move_fd(fd, base, above_base_full(base));
	if (s->writer >= 0 && ((!per_record && probe_truesize(base) < 0) ||
			       grow_sndbuf(s) < 0 ||
			       epoll_ctl(ep, EPOLL_CTL_ADD, s->writer, &ev) < 0)) {
		int err = errno;

		close(s->writer);
		s->writer = -1;
		errno = err;
	}
	if (s->writer < 0) {
		s->error = errno;
		return;
	}
	writers_open++;
	set_room(s, room_now(s));
	watch_room(s, ep);
	while (adopt_from && !share_ctx_waiting(adopt_from))
		adopt_from = adopt_from->next;
}

void share_ctx_refuse_waiting(int err)
{
	for (struct share *s = adopt_from; s; s = s->next)
		if (share_ctx_waiting(s) && s->handoff >= 0) {
			s->tried = true;
			s->error = err;
		}
}

bool share_ctx_waiting(const struct share *s)
{
	return s->writer < 0 && !s->tried;
}

int share_ctx_handed_over(struct share *s)
{
	close(s->handoff);
	s->handoff = -1;
	if (s->writer >= 0)
		return 0;
	unlink_live(s);
	errno = s->tried && s->error ? s->error : EAGAIN;
	free(s);
	return -1;
}

int share_ctx_setmask(dev_t dev, ino_t ino, sigbits mask, sigbits *old)
{
	for (struct share *s = live; s; s = s->next)
		if (s->dev == dev && s->ino == ino) {
			if (by_sig_reserve(mask & ~s->mask) < 0) {
				errno = ENOMEM;
				return -1;
			}
			*old = s->mask;
			set_mask(s, mask);
			return 0;
		}
	for (struct share *s = foreign; s; s = s->next)
		if (s->dev == dev && s->ino == ino) {
			errno = EPERM;
			return -1;
		}
	return 1;
}

sigbits share_ctx_wanted(void)
{
	sigbits want = 0;

	for (int i = 0; i < 64; i++)
		if (wanting[i])
			want |= (sigbits)1 << i;
	return want;
}

unsigned share_ctx_batch(void)
{
	for (unsigned room = 1; room <= SHARE_BATCH; room++)
		if (by_room[room])
			return room;
	return 0;
}

static void close_writer(struct share *s, int ep)
{
	epoll_ctl(ep, EPOLL_CTL_DEL, s->writer, NULL);
	close(s->writer);
	writers_open--;
	s->writer = -1;
	s->watching = false;
	set_room(s, 0);
}

/* Close its writer and let it go. One whose caller is still handing it over
 * stays listed, not adopted, for that caller to take back. */
static void remove_share(struct share *gone, int ep)
{
	close_writer(gone, ep);
	if (gone->handoff >= 0) {
		gone->tried = false; /* a thread started next may adopt it */
		adopt_from = live;
		return;
	}
	unlink_live(gone);
	gone->removed = true;
	gone->next = dead;
	dead = gone;
}

/* Ask the kernel what room s has; a reader gone (its last copy closed, or
 * shut for reading) hangs the writer up. */
static void refresh_room(struct share *s, int ep)
{
	struct pollfd p = { .fd = s->writer, .events = POLLOUT };

	if (poll(&p, 1, 0) < 0)
		return; /* keep the old guess: the next event asks again */
	if (p.revents & (POLLERR | POLLHUP)) {
		remove_share(s, ep);
		return;
	}
	set_room(s, room_now(s));
	watch_room(s, ep);
}

void share_ctx_writer_event(void *share, uint32_t events, int ep)
{
	struct share *s = share;

	/* Only the thread removes a share fd, and only the entry points free
	 * it, under the lock the thread holds from epoll_wait()'s return to
	 * the end of its events: one removed by an earlier event of the same
	 * wait is still there, marked. */
	if (s->removed)
		return;
	if (events & (EPOLLERR | EPOLLHUP))
		remove_share(s, ep); /* the last reader is gone */
	else
		refresh_room(s, ep);
}

/* Has the reader begun the newest record of standard signal sig in s? It
 * has once the send holding it charges nothing any more: records are read
 * whole, in order. In doubt, yes: a record too many, never one lost. */
static bool begun(const struct share *s, unsigned sig)
{
	int outq;

	return charged_now(s, &outq) < 0 || s->charged - (uint64_t)outq >= s->last_end[sig];
}

/* Does s still have a reader? Its last copy may have been closed after
 * the thread last looked: its unread records are going. */
static bool has_reader(const struct share *s)
{
	struct pollfd p = { .fd = s->writer, .events = POLLOUT };

	return poll(&p, 1, 0) == 1 && !(p.revents & (POLLERR | POLLHUP));
}

/* A standard signal coalesces while a record of it is unread in a share fd
 * that would take it now (its mask holds the signal and a reader holds the
 * fd), as a pending signal does in the kernel; so does a second instance
 * taken in the same batch. A record in a fd whose mask no longer holds the
 * signal, or whose last copy is closed, is not pending any more. */
static bool coalesces(const struct sigfd_siginfo *recs, unsigned i, struct share *const *dest)
{
	unsigned sig = recs[i].ssi_signo;

	if (sig >= KERNEL_SIGRTMIN)
		return false;
	for (unsigned j = 0; j < i; j++)
		if (dest[j] && recs[j].ssi_signo == sig)
			return true;
	for (unsigned k = 0; k < by_sig[sig - 1].n; k++) {
		struct share *s = by_sig[sig - 1].v[k];

		if (s->last_end[sig] && !begun(s, sig) && has_reader(s))
			return true;
	}
	return false;
}

/* Write the records routed to s, in order, with one call. A record of a
 * standard signal ends its send, so that whether the reader has begun it
 * can be told from what is still charged (begun()). On failure what was
 * not sent goes back; *gone says s was removed meanwhile (closed by its
 * last reader or by the program), so it may be routed again. */
static uint32_t write_routed(struct share *s, const struct sigfd_siginfo *recs, unsigned n,
			     struct share *const *dest, int ep, bool *gone)
{
	struct iovec iov[SHARE_BATCH];
	struct mmsghdr sends[SHARE_BATCH];
	uint32_t in_send[SHARE_BATCH], back = 0;
	unsigned count = 0, made = 0;
	bool open_send = false;
	int sent;

	for (unsigned i = 0; i < n; i++) {
		if (dest[i] != s)
			continue;
		if (!open_send) {
			memset(&sends[made], 0, sizeof sends[made]);
			sends[made].msg_hdr.msg_iov = &iov[count];
			in_send[made] = 0;
			open_send = true;
		}
		iov[count++] = (struct iovec){ .iov_base = (void *)&recs[i], .iov_len = RECORD };
		sends[made].msg_hdr.msg_iovlen++;
		in_send[made] |= (uint32_t)1 << i;
		if (recs[i].ssi_signo < KERNEL_SIGRTMIN) {
			made++;
			open_send = false;
		}
	}
	if (open_send)
		made++;
	sent = sendmmsg(s->writer, sends, made, MSG_DONTWAIT | MSG_NOSIGNAL);
	for (int k = 0; k < (int)made; k++) {
		if (k >= sent) {
			back |= in_send[k];
			continue;
		}
		s->charged += truesize[sends[k].msg_hdr.msg_iovlen];
		for (unsigned i = 0; i < n; i++)
			if ((in_send[k] & ((uint32_t)1 << i)) && recs[i].ssi_signo < KERNEL_SIGRTMIN)
				s->last_end[recs[i].ssi_signo] = s->charged;
	}
	if (back) {
		if (sent < 0 && (errno == EPIPE || errno == ECONNRESET))
			remove_share(s, ep);
		else
			refresh_room(s, ep); /* EAGAIN: fuller than we knew; or a hang-up */
		*gone = s->removed || s->writer < 0;
	} else if (s->room == 0)
		refresh_room(s, ep);
	return back;
}

/* A share fd by its creation number, while the thread can write to it. */
static struct share *writable_by_seq(uint64_t seq)
{
	for (struct share *s = live; s && seq; s = s->next)
		if (s->seq == seq)
			return s->writer >= 0 ? s : NULL;
	return NULL;
}

/* Route and write; *again: the records whose share fd turned out gone.
 * A record no mask holds goes to the share fd it was meant for (meant[i])
 * when it was held. meant[i] of a record not written: see
 * share_ctx_deliver(). */
static uint32_t route(const struct sigfd_siginfo *recs, unsigned n, uint64_t *meant, int ep,
		      uint32_t *again)
{
	struct share *dest[SHARE_BATCH];
	uint32_t back = 0;

	*again = 0;
	for (unsigned i = 0; i < n; i++) {
		const struct share_vec *v = &by_sig[recs[i].ssi_signo - 1];
		struct share *s = NULL, *first = v->n ? v->v[0] : writable_by_seq(meant[i]);

		dest[i] = NULL;
		if (coalesces(recs, i, dest))
			continue;
		for (unsigned k = 0; k < v->n && !s; k++)
			if (v->v[k]->room)
				s = v->v[k];
		if (!v->n && first && first->room)
			s = first;
		if (!s) {
			meant[i] = first ? first->seq : 0;
			back |= (uint32_t)1 << i;
			continue;
		}
		set_room(s, s->room - 1);
		dest[i] = s;
	}
	/* Each share fd gets its records in one write, in the order taken. */
	for (unsigned i = 0; i < n; i++) {
		struct share *s = dest[i];
		bool gone = false;
		uint32_t failed;

		if (!s)
			continue;
		failed = write_routed(s, recs, n, dest, ep, &gone);
		if (gone)
			*again |= failed;
		else
			back |= failed;
		for (unsigned j = i; j < n; j++)
			if (dest[j] == s) {
				if (!gone && (failed & ((uint32_t)1 << j)))
					meant[j] = s->seq;
				dest[j] = NULL;
			}
	}
	return back;
}

/* A share fd whose last reader has just gone, its hang-up not seen yet, may
 * be routed to: what it refused goes to the share fds left, never back to
 * the kernel while one of them takes it. Each round removes one at least. */
uint32_t share_ctx_deliver(const struct sigfd_siginfo *recs, unsigned n, uint64_t *meant, int ep)
{
	struct sigfd_siginfo left[SHARE_BATCH];
	uint64_t left_meant[SHARE_BATCH], *now = meant;
	unsigned at[SHARE_BATCH];
	uint32_t back = 0, again;

	for (unsigned i = 0; i < n; i++)
		at[i] = i;
	while (n > 0) {
		uint32_t failed = route(recs, n, now, ep, &again);
		unsigned m = 0;

		for (unsigned i = 0; i < n; i++) {
			uint32_t bit = (uint32_t)1 << i;

			if (failed & bit) {
				back |= (uint32_t)1 << at[i];
				meant[at[i]] = now[i];
			} else if (again & bit) {
				left[m] = recs[i];
				left_meant[m] = now[i];
				at[m++] = at[i];
			}
		}
		recs = left;
		now = left_meant;
		n = m;
	}
	return back;
}

unsigned long share_ctx_room_for_exit(int ep)
{
	unsigned long budget = 0;

	for (struct share *s = live, *next; s; s = next) {
		int outq;

		next = s->next; /* refresh_room() may remove s */
		if (s->writer < 0)
			continue;
		/* At best a whole batch a send. */
		if (charged_now(s, &outq) == 0 && outq < s->sndbuf)
			budget += (unsigned long)(s->sndbuf - outq) / (truesize[SHARE_BATCH] / SHARE_BATCH) +
				  SHARE_BATCH;
		refresh_room(s, ep);
	}
	return budget;
}

bool share_ctx_unwatched(void)
{
	return some_unwatched;
}

void share_ctx_recheck_unwatched(int ep)
{
	some_unwatched = false; /* set again by a writer still refused */
	for (struct share *s = live, *next; s; s = next) {
		next = s->next; /* refresh_room() may remove s */
		if (s->writer >= 0 && s->room == 0 && !s->watching)
			refresh_room(s, ep);
	}
}

unsigned share_ctx_writers(void)
{
	return writers_open;
}

bool share_ctx_empty(void)
{
	for (struct share *s = live; s; s = s->next)
		if (s->writer >= 0 || share_ctx_waiting(s))
			return false;
	return true;
}

static void free_list(struct share **list)
{
	while (*list) {
		struct share *next = (*list)->next;
		free(*list);
		*list = next;
	}
}

void share_ctx_reap(void)
{
	free_list(&dead);
	/* With no share fd left the per-signal lists go too: an object
	 * unloaded by dlclose() takes the pointers to them with it. */
	if (!live)
		for (int i = 0; i < 64; i++) {
			free(by_sig[i].v);
			by_sig[i] = (struct share_vec){ NULL, 0, 0 };
		}
}

bool share_same_socket(int fd, dev_t dev, ino_t ino)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode) && st.st_dev == dev && st.st_ino == ino;
}

void share_ctx_forget(void)
{
	struct share **tail = &foreign;

	free_list(&dead);
	writers_open = 0; /* they are in the parent's thread's table */
	some_unwatched = false;
	/* The share fds of every ancestor stay foreign: a grandchild's setmask
	 * on its grandparent's fd fails with EPERM as a child's does. */
	while (*tail)
		tail = &(*tail)->next;
	for (struct share *s = live; s; s = s->next)
		if (s->handoff >= 0) { /* a caller in the parent was handing it over */
			/* A child forked without fork handlers may have
			 * reused the number by now. */
			if (share_same_socket(s->handoff, s->wdev, s->wino))
				close(s->handoff);
			s->handoff = -1;
		}
	*tail = live;
	live = live_last = NULL;
	adopt_from = NULL;
	for (int i = 0; i < 64; i++) {
		by_sig[i].n = 0;
		wanting[i] = 0;
	}
	memset(by_room, 0, sizeof by_room);
}

void share_ctx_close_all(int ep)
{
	for (struct share *s = live; s; s = s->next)
		if (s->writer >= 0) {
			close_writer(s, ep);
			/* Left listed, adopted by no thread: sigfd_setmask() still
			 * knows it (exit() in another thread); one being handed
			 * over may be adopted by the next thread. */
			s->tried = s->handoff < 0;
			if (!s->tried && !adopt_from)
				adopt_from = live;
		}
}
