/* SPDX-License-Identifier: MIT */
/* The user-space share mode's state machine: each share fd is the read end
 * of a pipe whose write end the creator keeps. The kernel keeps the state
 * exactly: FIONREAD is the number of unread bytes, a write of at most
 * PIPE_BUF bytes is atomic, poll() says whether a page is free. From these
 * this file decides where a signal goes, whether it coalesces into a record
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
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "share_ctx.h"
#include "tasks.h"

#define RECORD sizeof(struct sigfd_siginfo)
/* The kernel's first real-time signal: below it a pending signal coalesces. */
#define KERNEL_SIGRTMIN 32

_Static_assert(SHARE_BATCH * sizeof(struct sigfd_siginfo) <= PIPE_BUF,
	       "a batch must be one atomic pipe write");

struct share {
	struct share *next, *prev; /* prev: in the live list only */
	uint64_t seq;     /* creation order: routing prefers the oldest */
	bool removed;     /* let go by the thread: an event for it is stale */
	int writer;       /* write end of the pipe in the thread's table, or -1 */
	int handoff;      /* the write end in the caller's table until adopted, or -1 */
	char from[TASK_NAME_SIZE]; /* the thread whose table holds handoff, as /proc names it */
	int error;        /* why adoption failed, or 0 */
	bool tried;       /* the thread has tried to adopt it */
	dev_t dev;        /* identity of the pipe, for setmask */
	ino_t ino;
	sigbits mask;
	unsigned room;    /* records that surely fit now; 0: wait for a free page (set_room()) */
	uint64_t written; /* records written so far */
	uint64_t read;    /* records the reader has surely begun, from FIONREAD */
	/* 1 + the number of the newest record of each standard signal, or 0. */
	uint64_t last[KERNEL_SIGRTMIN];
};

static struct share *live;    /* our share fds, in creation order */
static struct share *live_last;
static struct share *dead;    /* removed by the thread, freed by share_ctx_reap() */
static struct share *foreign; /* the share fds of the process we were forked from */
static unsigned writers_open; /* write ends in the thread's table */
static uint64_t opened;       /* share fds made: the next one's seq */
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

struct share *share_ctx_open(sigbits mask, unsigned long flags, int *reader)
{
	struct share *s = calloc(1, sizeof *s);
	int pipefd[2], err;
	struct stat st;

	if (!s)
		return NULL;
	if (by_sig_reserve(mask) < 0) {
		free(s);
		errno = ENOMEM;
		return NULL;
	}
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		free(s);
		return NULL;
	}
	if (fstat(pipefd[0], &st) < 0 ||
	    ((flags & SIGFD_NONBLOCK) && fcntl(pipefd[0], F_SETFL, O_NONBLOCK) < 0) ||
	    (!(flags & SIGFD_CLOEXEC) && fcntl(pipefd[0], F_SETFD, 0) < 0)) {
		err = errno;
		close(pipefd[0]);
		close(pipefd[1]);
		free(s);
		errno = err;
		return NULL;
	}
	s->writer = -1;
	s->handoff = pipefd[1];
	tasks_own_name(s->from, sizeof s->from);
	s->dev = st.st_dev;
	s->ino = st.st_ino;
	s->seq = opened++;
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
	*reader = pipefd[0];
	return s;
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
 * (its reserve) and the write ends? Then a write end goes below base. */
static bool above_base_full(int base)
{
	struct rlimit lim;

	return getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY &&
	       writers_open + SHARE_THREAD_RESERVED + (rlim_t)base >= lim.rlim_cur;
}

/* The write end, opened again through the caller's descriptor in /proc, in
 * the thread's own table at base or above; checked to be the same pipe (the
 * program may have closed the caller's meanwhile). */
static int open_writer(const struct share *s, int base)
{
	char path[64];
	struct stat st;
	int fd;

	snprintf(path, sizeof path, "/proc/self/task/%s/fd/%d", s->from, s->handoff);
	fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0) {
		int err = errno;

		close(fd);
		errno = err;
		return -1;
	}
	if (!S_ISFIFO(st.st_mode) || st.st_dev != s->dev || st.st_ino != s->ino) {
		close(fd);
		errno = EBADF; /* not the caller's pipe: the program closed it meanwhile */
		return -1;
	}
	/* A write end may take the numbers below base too once those above
	 * are all the thread's: the table is its own, and the program may
	 * hold as many share fds as its limit allows. */
	return move_fd(fd, base, above_base_full(base));
}

/* Is there a number free for one more write end, the thread's reserve
 * kept? RLIMIT_NOFILE is asked each time: the program may change it. */
static bool room_for_writer(void)
{
	struct rlimit lim;

	return getrlimit(RLIMIT_NOFILE, &lim) < 0 || lim.rlim_cur == RLIM_INFINITY ||
	       writers_open + SHARE_THREAD_RESERVED < lim.rlim_cur;
}

void share_ctx_adopt(int ep, int base)
{
	struct share *from = adopt_from;

	adopt_from = NULL;
	for (struct share *s = from; s; s = s->next) {
		struct epoll_event ev = { .events = EPOLLOUT | EPOLLET, .data.ptr = s };

		if (s->tried || s->handoff < 0)
			continue;
		s->tried = true;
		if (!room_for_writer()) {
			s->error = EMFILE;
			continue;
		}
		s->writer = open_writer(s, base);
		if (s->writer >= 0 && epoll_ctl(ep, EPOLL_CTL_ADD, s->writer, &ev) < 0) {
			int err = errno;

			close(s->writer);
			s->writer = -1;
			errno = err;
		}
		if (s->writer < 0)
			s->error = errno;
		else {
			writers_open++;
			set_room(s, SHARE_BATCH); /* an empty pipe has a free page */
		}
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

/* A free pipe page holds a whole batch; otherwise the pipe wakes its writer
 * (EPOLLOUT) when the reader frees one. The event alone may be stale, so ask. */
static void refresh_room(struct share *s, int ep)
{
	struct pollfd p = { .fd = s->writer, .events = POLLOUT };

	if (poll(&p, 1, 0) < 0)
		return; /* keep the old guess: the next event asks again */
	if (p.revents & POLLERR)
		remove_share(s, ep);
	else
		set_room(s, (p.revents & POLLOUT) ? SHARE_BATCH : 0);
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

/* Has the reader begun record number k of s? Asked of the kernel only when
 * what we last learned does not already say so. */
static bool begun(struct share *s, uint64_t k)
{
	int unread;

	if (k < s->read)
		return true;
	if (k >= s->written || ioctl(s->writer, FIONREAD, &unread) < 0)
		return false;
	s->read = s->written - (uint64_t)unread / RECORD;
	return k < s->read;
}

/* Does the pipe of s still have a reader? Its last copy may have been
 * closed after the thread last looked: its unread records are going. */
static bool has_reader(struct share *s)
{
	struct pollfd p = { .fd = s->writer, .events = POLLOUT };

	return poll(&p, 1, 0) == 1 && !(p.revents & POLLERR);
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

		if (s->last[sig] && !begun(s, s->last[sig] - 1) && has_reader(s))
			return true;
	}
	return false;
}

/* A write into a pipe with no reader raises SIGPIPE at the writing thread,
 * which blocks it: take it at once, so that it never becomes a record nor
 * stays pending. A thread-directed signal is taken before a process one. */
static void drop_own_sigpipe(void)
{
	sigset_t pipe_only;
	struct timespec now = { 0, 0 };

	sigemptyset(&pipe_only);
	sigaddset(&pipe_only, SIGPIPE);
	sigtimedwait(&pipe_only, NULL, &now);
}

/* Write the records routed to s in one atomic write. On failure they go
 * back; *gone says s was removed meanwhile (closed by its last reader or by
 * the program), so they may be routed again. */
static uint32_t write_routed(struct share *s, const struct sigfd_siginfo *recs, unsigned n,
			     struct share *const *dest, int ep, bool *gone)
{
	struct iovec iov[SHARE_BATCH];
	unsigned count = 0;
	uint32_t mine = 0;

	for (unsigned i = 0; i < n; i++)
		if (dest[i] == s) {
			iov[count++] = (struct iovec){ .iov_base = (void *)&recs[i], .iov_len = RECORD };
			mine |= (uint32_t)1 << i;
		}
	if (writev(s->writer, iov, (int)count) < 0) {
		if (errno == EPIPE) {
			drop_own_sigpipe();
			remove_share(s, ep);
			*gone = true;
		} else {
			set_room(s, 0); /* EAGAIN: the pipe is fuller than we knew */
			refresh_room(s, ep);
		}
		return mine;
	}
	for (unsigned i = 0; i < n; i++)
		if (dest[i] == s) {
			if (recs[i].ssi_signo < KERNEL_SIGRTMIN)
				s->last[recs[i].ssi_signo] = s->written + 1;
			s->written++;
		}
	if (s->room == 0)
		refresh_room(s, ep);
	return 0;
}

/* Route and write; *again: the records whose share fd turned out gone. */
static uint32_t route(const struct sigfd_siginfo *recs, unsigned n, int ep, uint32_t *again)
{
	struct share *dest[SHARE_BATCH];
	uint32_t back = 0;

	*again = 0;
	for (unsigned i = 0; i < n; i++) {
		const struct share_vec *v = &by_sig[recs[i].ssi_signo - 1];
		struct share *s = NULL;

		dest[i] = NULL;
		if (coalesces(recs, i, dest))
			continue;
		for (unsigned k = 0; k < v->n && !s; k++)
			if (v->v[k]->room)
				s = v->v[k];
		if (!s) {
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
			if (dest[j] == s)
				dest[j] = NULL;
	}
	return back;
}

/* A share fd whose last reader has just gone, its hang-up not seen yet, may
 * be routed to: what it refused goes to the share fds left, never back to
 * the kernel while one of them takes it. Each round removes one at least. */
uint32_t share_ctx_deliver(const struct sigfd_siginfo *recs, unsigned n, int ep)
{
	struct sigfd_siginfo left[SHARE_BATCH];
	unsigned at[SHARE_BATCH];
	uint32_t back = 0, again;

	for (unsigned i = 0; i < n; i++)
		at[i] = i;
	while (n > 0) {
		uint32_t failed = route(recs, n, ep, &again);
		unsigned m = 0;

		for (unsigned i = 0; i < n; i++) {
			uint32_t bit = (uint32_t)1 << i;

			if (failed & bit)
				back |= (uint32_t)1 << at[i];
			else if (again & bit) {
				left[m] = recs[i];
				at[m++] = at[i];
			}
		}
		recs = left;
		n = m;
	}
	return back;
}

/* The most a pipe may hold without privilege, from /proc (1 MiB when it
 * cannot be read). Read without the allocator: the thread asks. */
static int pipe_max_size(void)
{
	char buf[32];
	ssize_t n = -1;
	int fd = open("/proc/sys/fs/pipe-max-size", O_RDONLY | O_CLOEXEC);
	long max;

	if (fd >= 0) {
		n = read(fd, buf, sizeof buf - 1);
		close(fd);
	}
	if (n <= 0)
		return 1 << 20;
	buf[n] = 0;
	max = strtol(buf, NULL, 10);
	return max > 0 && max <= INT_MAX ? (int)max : 1 << 20;
}

unsigned long share_ctx_grow_for_exit(int ep)
{
	int max = pipe_max_size();
	unsigned long budget = 0;

	for (struct share *s = live, *next; s; s = next) {
		int size, unread;

		next = s->next; /* refresh_room() may remove s */
		if (s->writer < 0)
			continue;
		/* Growing may fail (EPERM past the user's pipe pages): the
		 * pipe then holds what it held. */
		if (fcntl(s->writer, F_GETPIPE_SZ) < max)
			(void)fcntl(s->writer, F_SETPIPE_SZ, max);
		size = fcntl(s->writer, F_GETPIPE_SZ);
		if (size > 0 && ioctl(s->writer, FIONREAD, &unread) == 0 && unread < size)
			budget += (unsigned long)(size - unread) / RECORD;
		refresh_room(s, ep);
	}
	return budget;
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

void share_ctx_forget(void)
{
	struct share **tail = &foreign;

	free_list(&dead);
	writers_open = 0; /* they are in the parent's thread's table */
	/* The share fds of every ancestor stay foreign: a grandchild's setmask
	 * on its grandparent's fd fails with EPERM as a child's does. */
	while (*tail)
		tail = &(*tail)->next;
	for (struct share *s = live; s; s = s->next)
		if (s->handoff >= 0)
			close(s->handoff); /* a caller in the parent was handing it over */
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
