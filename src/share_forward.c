/* SPDX-License-Identifier: MIT */
/* Share mode in user space, the forwarding thread: takes the creator's
 * signals from a signalfd of its own, only while some share fd has room for
 * them, and writes each as one record to exactly one share fd. It exits when
 * the last share fd has been closed everywhere. See share_user.h.
 *
 * The thread never calls the allocator: its first call would give it a
 * malloc arena of its own (64 MiB of address space reserved). What it gives
 * up, the API side frees. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "share_user.h"

/* Bigger than any sanitizer needs; the thread itself uses a few KiB. */
#define FORWARD_STACK (256 * 1024)
/* Events taken from epoll at once. */
#define FORWARD_EVENTS 16

static bool has_room(const struct share *s)
{
	return s->unread < s->capacity;
}

int share_update_mask(void)
{
	struct share_state *st = &share_state;
	sigbits want = 0;
	sigset_t set;

	for (struct share *s = st->list; s; s = s->next)
		if (has_room(s))
			want |= s->mask;
	if (want == st->taking)
		return 0;
	sigemptyset(&set);
	for (int sig = 1; sig < NSIG; sig++)
		if (want & SIGBIT(sig))
			sigaddset(&set, sig);
	if (signalfd(st->sfd, &set, 0) < 0)
		return -1;
	st->taking = want;
	return 0;
}

/* Under the lock: the exact number of unread records of s (one ioctl). */
static void share_refresh(struct share *s)
{
	unsigned cost = 0, records = 0, keep = 0;
	int queued;

	/* On failure keep the upper bound: it only ever errs towards full. */
	if (ioctl(s->writer, TIOCOUTQ, &queued) < 0)
		return;
	/* Buffers are read in order: the unread ones are the newest. */
	while (keep < s->buf_count && cost < (unsigned)queued) {
		unsigned k = s->buf_records[(s->buf_first + s->buf_count - 1 - keep) % SHARE_CAPACITY];

		cost += share_state.buf_cost[k];
		records += k;
		keep++;
	}
	s->buf_first = (s->buf_first + s->buf_count - keep) % SHARE_CAPACITY;
	s->buf_count = keep;
	s->unread = records + s->unsent;
}

/* Is a record for sig among the unread ones of s? Checked against the
 * exact count, so a record read a moment ago never swallows a new signal. */
static bool unread_record_for(struct share *s, unsigned sig)
{
	for (int pass = 0; pass < 2; pass++) {
		bool seen = false;
		unsigned n = s->unread < s->written ? s->unread : s->written;

		for (unsigned k = s->written - n; k != s->written; k++)
			if (s->signo[k % SHARE_CAPACITY] == sig)
				seen = true;
		if (!seen)
			return false;
		if (pass == 0)
			share_refresh(s);
	}
	return true;
}

/* Put a signal we took but cannot deliver back in the creator's queue, with
 * its origin: the kernel lets a process queue any siginfo to itself. */
static void requeue(const struct sigfd_siginfo *r)
{
	siginfo_t si;

	memset(&si, 0, sizeof si);
	si.si_signo = (int)r->ssi_signo;
	si.si_errno = r->ssi_errno;
	si.si_code = r->ssi_code;
	si.si_pid = (pid_t)r->ssi_pid;
	si.si_uid = (uid_t)r->ssi_uid;
	if (r->ssi_signo == SIGCHLD && r->ssi_code > 0) {
		si.si_status = r->ssi_status;
		si.si_utime = (clock_t)r->ssi_utime;
		si.si_stime = (clock_t)r->ssi_stime;
	} else {
		si.si_value.sival_ptr = (void *)(uintptr_t)r->ssi_ptr;
	}
	syscall(SYS_rt_sigqueueinfo, (long)getpid(), (long)r->ssi_signo, &si);
}

/* The share fd for one signal, or NULL when it coalesces into a record
 * still unread or (after a race with a close) has nowhere to go. */
static struct share *route(const struct sigfd_siginfo *r, bool *coalesced)
{
	struct share *s;

	*coalesced = false;
	if ((int)r->ssi_signo < SIGRTMIN) {
		for (s = share_state.list; s; s = s->next)
			if ((s->mask & SIGBIT(r->ssi_signo)) && unread_record_for(s, r->ssi_signo)) {
				*coalesced = true;
				return NULL;
			}
	}
	for (s = share_state.list; s; s = s->next)
		if ((s->mask & SIGBIT(r->ssi_signo)) && has_room(s))
			return s;
	return NULL;
}

/* Write the records routed to s: a standard signal's record as a socket
 * buffer of its own, so that whether it is still unread is known exactly;
 * runs of real-time records up to SHARE_RUN per buffer. What the kernel
 * refuses (the last reader just went away) goes back to the creator's
 * queue. A partial write cannot happen: the send buffer holds more than a
 * full share fd (share_user.c sizes it). */
static void send_routed(struct share *s, struct sigfd_siginfo *recs, struct share **dest, int n)
{
	struct mmsghdr msg[SHARE_BATCH];
	struct iovec iov[SHARE_BATCH];
	int count = 0, records = 0, sent;
	bool in_run = false;

	for (int i = 0; i < n; i++) {
		bool realtime = (int)recs[i].ssi_signo >= SIGRTMIN;

		if (dest[i] != s)
			continue;
		if (!(realtime && in_run && msg[count - 1].msg_hdr.msg_iovlen < SHARE_RUN)) {
			memset(&msg[count], 0, sizeof msg[count]);
			msg[count].msg_hdr.msg_iov = &iov[records];
			count++;
		}
		iov[records++] = (struct iovec){ .iov_base = &recs[i], .iov_len = sizeof recs[i] };
		msg[count - 1].msg_hdr.msg_iovlen++;
		in_run = realtime;
	}
	sent = (int)sendmmsg(s->writer, msg, (unsigned)count, MSG_DONTWAIT | MSG_NOSIGNAL);
	if (sent < 0)
		sent = 0;
	for (int m = 0; m < count; m++) {
		unsigned k = (unsigned)msg[m].msg_hdr.msg_iovlen;

		if (m < sent) {
			s->buf_records[(s->buf_first + s->buf_count++) % SHARE_CAPACITY] = (unsigned char)k;
			continue;
		}
		for (unsigned j = 0; j < k; j++)
			requeue(msg[m].msg_hdr.msg_iov[j].iov_base);
		s->written -= k;
		s->unread -= k;
	}
	s->unsent = 0;
}

static void forward_pending(void)
{
	struct sigfd_siginfo recs[SHARE_BATCH];
	struct share *dest[SHARE_BATCH];
	unsigned room = SHARE_BATCH;
	ssize_t got;
	int n;

	/* Take no more than the fullest fd with room can still hold: then every
	 * record taken has room wherever it is routed, and none goes back to
	 * the kernel behind later ones of its kind. */
	for (struct share *s = share_state.list; s; s = s->next)
		if (has_room(s) && s->capacity - s->unread < room)
			room = s->capacity - s->unread;
	got = read(share_state.sfd, recs, room * sizeof recs[0]);
	if (got <= 0)
		return;
	n = (int)(got / (ssize_t)sizeof recs[0]);
	for (int i = 0; i < n; i++) {
		bool coalesced;
		struct share *s = route(&recs[i], &coalesced);

		dest[i] = s;
		if (s) {
			s->signo[s->written % SHARE_CAPACITY] = (unsigned char)recs[i].ssi_signo;
			s->written++;
			s->unread++;
			s->unsent++;
		} else if (!coalesced) {
			requeue(&recs[i]);
		}
	}
	for (struct share *s = share_state.list; s; s = s->next)
		if (s->unsent)
			send_routed(s, recs, dest, n);
}

static void remove_share(struct share *gone)
{
	for (struct share **p = &share_state.list; *p; p = &(*p)->next)
		if (*p == gone) {
			*p = gone->next;
			/* Out of the epoll set before the fd goes: a forked child
			 * may still hold the file for a moment. */
			epoll_ctl(share_state.ep, EPOLL_CTL_DEL, gone->writer, NULL);
			close(gone->writer);
			gone->next = share_state.dead; /* freed by share_reap() */
			share_state.dead = gone;
			return;
		}
}

/* Hang-up is always reported; EPOLLOUT, edge-triggered, only while s is full:
 * then each buffer the reader frees wakes the thread to count again. */
static int watch(struct share *s, int op, bool room)
{
	struct epoll_event ev = { .events = EPOLLET | (room ? EPOLLOUT : 0), .data.ptr = s };

	if (epoll_ctl(share_state.ep, op, s->writer, &ev) < 0)
		return -1;
	s->registered = true;
	s->watching_room = room;
	return 0;
}

static void watch_room_of_full_shares(void)
{
	for (struct share *s = share_state.list; s; s = s->next)
		if (!has_room(s) && !s->watching_room)
			watch(s, EPOLL_CTL_MOD, true);
}

void share_reap(void)
{
	struct share_state *st = &share_state;

	while (st->dead) {
		struct share *next = st->dead->next;
		free(st->dead);
		st->dead = next;
	}
}

static void handle_events(const struct epoll_event *ev, int n, bool *signals)
{
	struct share_state *st = &share_state;

	for (int i = 0; i < n; i++) {
		struct share *s = ev[i].data.ptr;

		if (!s) {
			*signals = true;
		} else if ((void *)s == &st->wake) {
			uint64_t count;
			ssize_t ignored = read(st->wake, &count, sizeof count);
			(void)ignored;
		} else if (ev[i].events & (EPOLLHUP | EPOLLERR)) {
			remove_share(s);
		} else if (ev[i].events & EPOLLOUT) {
			share_refresh(s);
			if (has_room(s))
				watch(s, EPOLL_CTL_MOD, false);
		}
	}
}

static void *forward(void *unused)
{
	struct share_state *st = &share_state;
	struct epoll_event ev[FORWARD_EVENTS];
	int sfd, wake, ep;

	(void)unused;
	pthread_mutex_lock(&st->lock);
	sfd = st->sfd;
	wake = st->wake;
	ep = st->ep;
	while (st->list && !st->stopping) {
		bool signals = false;
		int n;

		pthread_mutex_unlock(&st->lock);
		n = epoll_wait(ep, ev, FORWARD_EVENTS, -1);
		pthread_mutex_lock(&st->lock);
		handle_events(ev, n, &signals);
		/* Before reading: a share fd just gone takes nothing more. */
		share_update_mask();
		if (signals) {
			forward_pending();
			watch_room_of_full_shares();
			share_update_mask();
		}
	}
	for (struct share *s = st->list; s; s = s->next)
		s->registered = s->watching_room = false;
	st->running = false;
	st->sfd = st->wake = st->ep = -1;
	st->taking = 0;
	pthread_mutex_unlock(&st->lock);
	close(sfd);
	close(wake);
	close(ep);
	return NULL;
}

static void wake_thread(void)
{
	uint64_t one = 1;
	ssize_t ignored = write(share_state.wake, &one, sizeof one);

	(void)ignored; /* a full counter wakes the thread just as well */
}

/* A thread that ended by itself, its last share fd closed, is joined here or
 * when the next one starts: it holds no lock on its way out. */
static void join_ended(void)
{
	struct share_state *st = &share_state;

	if (st->joinable && !st->running) {
		pthread_join(st->thread, NULL);
		st->joinable = false;
	}
}

void share_stop(void)
{
	struct share_state *st = &share_state;

	if (st->running) {
		st->stopping = true;
		wake_thread();
		pthread_mutex_unlock(&st->lock);
		pthread_join(st->thread, NULL);
		pthread_mutex_lock(&st->lock);
		st->joinable = false;
		st->stopping = false;
	}
	join_ended();
}

/* Under the lock: put share fds the thread does not watch yet into its set. */
static int register_shares(void)
{
	for (struct share *s = share_state.list; s; s = s->next)
		if (!s->registered && watch(s, EPOLL_CTL_ADD, !has_room(s)) < 0)
			return -1;
	return 0;
}

static int add_fd(int ep, int fd, void *tag)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = tag };

	return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
}

int share_serve(void)
{
	struct share_state *st = &share_state;
	pthread_attr_t attr;
	sigset_t none, all, old;
	int err = 0;

	if (st->running)
		return register_shares();
	join_ended();
	sigemptyset(&none);
	st->taking = 0;
	st->sfd = signalfd(-1, &none, SFD_NONBLOCK | SFD_CLOEXEC);
	st->wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	st->ep = epoll_create1(EPOLL_CLOEXEC);
	if (st->sfd < 0 || st->wake < 0 || st->ep < 0 || add_fd(st->ep, st->sfd, NULL) < 0 ||
	    add_fd(st->ep, st->wake, &st->wake) < 0 || register_shares() < 0) {
		err = errno;
		goto fail;
	}
	/* The thread blocks every signal, so it never runs a handler and
	 * never takes a signal except through its signalfd. The caller's own
	 * mask is restored at once. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, FORWARD_STACK);
	err = pthread_create(&st->thread, &attr, forward, NULL);
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err == 0) {
		pthread_setname_np(st->thread, "sigfd-forward"); /* seen in ps, top, /proc */
		st->running = st->joinable = true;
		return 0;
	}
fail:
	for (struct share *s = st->list; s; s = s->next)
		s->registered = s->watching_room = false;
	if (st->sfd >= 0)
		close(st->sfd);
	if (st->wake >= 0)
		close(st->wake);
	if (st->ep >= 0)
		close(st->ep);
	st->sfd = st->wake = st->ep = -1;
	errno = err;
	return -1;
}
