/* Share mode in user space, the forwarding thread: takes the creator's
 * signals from a signalfd of its own, only while some share fd has room for
 * them, and writes each as one record to exactly one share fd. It exits when
 * the last share fd has been closed everywhere. See share_user.h. */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "share_user.h"

/* Bigger than any sanitizer needs; the thread itself uses a few KiB. */
#define FORWARD_STACK (256 * 1024)

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

void share_refresh(struct share *s)
{
	int queued;

	/* On failure keep the upper bound: it only ever errs towards full. */
	if (ioctl(s->writer, TIOCOUTQ, &queued) == 0)
		s->unread = (unsigned)queued / share_state.record_cost + s->unsent;
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

/* Write the records routed to s, one socket buffer each, so that TIOCOUTQ
 * counts them exactly. What the kernel refuses (the last reader just went
 * away) goes back to the creator's queue. */
static void send_routed(struct share *s, struct sigfd_siginfo *recs, struct share **dest, int n)
{
	struct mmsghdr msg[SHARE_BATCH];
	struct iovec iov[SHARE_BATCH];
	int count = 0, sent;

	for (int i = 0; i < n; i++) {
		if (dest[i] != s)
			continue;
		iov[count] = (struct iovec){ .iov_base = &recs[i], .iov_len = sizeof recs[i] };
		memset(&msg[count], 0, sizeof msg[count]);
		msg[count].msg_hdr.msg_iov = &iov[count];
		msg[count].msg_hdr.msg_iovlen = 1;
		count++;
	}
	sent = (int)sendmmsg(s->writer, msg, (unsigned)count, MSG_DONTWAIT | MSG_NOSIGNAL);
	if (sent < 0)
		sent = 0;
	for (int i = sent; i < count; i++)
		requeue(iov[i].iov_base);
	s->unsent = 0;
	s->written -= (unsigned)(count - sent);
	s->unread -= (unsigned)(count - sent);
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
			close(gone->writer);
			gone->next = share_state.dead; /* freed by share_reap() */
			share_state.dead = gone;
			return;
		}
}

int share_reserve(size_t shares)
{
	struct share_state *st = &share_state;
	struct pollset *have = st->pollset_next ? st->pollset_next : st->pollset;
	size_t slots = 2 + shares, want;
	struct pollset *ps;

	if (have && have->slots >= slots)
		return 0;
	want = slots < 8 ? 8 : 2 * slots;
	ps = malloc(sizeof *ps + want * (sizeof ps->pfd[0] + sizeof ps->who[0]));
	if (!ps)
		return -1;
	ps->slots = want;
	ps->who = (struct share **)(ps->pfd + want);
	ps->retired_next = NULL;
	free(st->pollset_next); /* the thread never saw it */
	st->pollset_next = ps;
	return 0;
}

static void free_pollsets(struct pollset *ps)
{
	while (ps) {
		struct pollset *next = ps->retired_next;
		free(ps);
		ps = next;
	}
}

void share_reap(bool all)
{
	struct share_state *st = &share_state;

	while (st->dead) {
		struct share *next = st->dead->next;
		free(st->dead);
		st->dead = next;
	}
	free_pollsets(st->retired);
	st->retired = NULL;
	if (all) {
		free(st->pollset);
		free(st->pollset_next);
		st->pollset = st->pollset_next = NULL;
	}
}

static void *forward(void *unused)
{
	struct share_state *st = &share_state;
	int sfd, wake;

	(void)unused;
	pthread_mutex_lock(&st->lock);
	sfd = st->sfd;
	wake = st->wake;
	while (st->list && !st->stopping) {
		size_t n;

		if (st->pollset_next) {
			if (st->pollset) {
				st->pollset->retired_next = st->retired;
				st->retired = st->pollset;
			}
			st->pollset = st->pollset_next;
			st->pollset_next = NULL;
		}
		/* share_reserve() made room for every share in the list. */
		struct pollfd *pfd = st->pollset->pfd;
		struct share **who = st->pollset->who;
		pfd[0] = (struct pollfd){ .fd = sfd, .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = wake, .events = POLLIN };
		n = 2;
		for (struct share *s = st->list; s; s = s->next, n++) {
			/* Hang-up (all readers gone) is always reported; writable
			 * only matters once full. */
			pfd[n] = (struct pollfd){ .fd = s->writer, .events = has_room(s) ? 0 : POLLOUT };
			who[n] = s;
		}

		pthread_mutex_unlock(&st->lock);
		poll(pfd, (nfds_t)n, -1);
		pthread_mutex_lock(&st->lock);

		if (pfd[1].revents & POLLIN) {
			uint64_t count;
			ssize_t ignored = read(wake, &count, sizeof count);
			(void)ignored;
		}
		/* Only this thread removes shares, so the snapshot is valid. */
		for (size_t i = 2; i < n; i++) {
			if (pfd[i].revents & (POLLHUP | POLLERR))
				remove_share(who[i]);
			else if (pfd[i].revents & POLLOUT)
				share_refresh(who[i]);
		}
		share_update_mask();
		if (pfd[0].revents & POLLIN) {
			forward_pending();
			share_update_mask();
		}
	}
	st->running = false;
	st->sfd = st->wake = -1;
	st->taking = 0;
	pthread_mutex_unlock(&st->lock);
	close(sfd);
	close(wake);
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

int share_start_or_wake(void)
{
	struct share_state *st = &share_state;
	pthread_attr_t attr;
	sigset_t none, all, old;
	int err = 0;

	if (st->running) {
		wake_thread();
		return 0;
	}
	join_ended();
	sigemptyset(&none);
	st->taking = 0;
	st->sfd = signalfd(-1, &none, SFD_NONBLOCK | SFD_CLOEXEC);
	st->wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (st->sfd < 0 || st->wake < 0) {
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
	if (st->sfd >= 0)
		close(st->sfd);
	if (st->wake >= 0)
		close(st->wake);
	st->sfd = st->wake = -1;
	errno = err;
	return -1;
}
