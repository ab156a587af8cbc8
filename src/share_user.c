/* SPDX-License-Identifier: MIT */
/* Share mode in user space, the API side: creating share fds, changing their
 * masks, and keeping a forked child's signals out of the parent's share fds.
 * The forwarding thread is in share_forward.c; the design in share_user.h. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "backend.h"
#include "share_user.h"

struct share_state share_state = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.wake = -1,
	.sfd = -1,
};

/* Share fds are named in the abstract socket namespace so that any process
 * holding one can tell it from an ordinary socket (setmask then says EPERM,
 * not EINVAL). Nobody can connect to the name: the socket never listens. */
#define SHARE_NAME_PREFIX "sigfd-share/"

static pthread_once_t fork_handlers_once = PTHREAD_ONCE_INIT;

/* The thread is ended across fork() and started again after it, so the
 * child inherits no trace of a thread it does not have (libc, valgrind and
 * TSan all see a single-threaded library). Signals wait in the kernel
 * queue meanwhile. */
static void before_fork(void)
{
	pthread_mutex_lock(&share_state.lock);
	share_stop();
}

static void after_fork_in_parent(void)
{
	if (share_state.list && share_serve() == 0)
		share_update_mask();
	pthread_mutex_unlock(&share_state.lock);
}

/* The child must not hold the writers: they
 * would keep the parent's readers from seeing end of file, and the child's
 * own signals must never reach the parent's share fds. The child's copies
 * of the share fds themselves stay open: they still report the parent. */
static void after_fork_in_child(void)
{
	struct share_state *st = &share_state;
	struct share *s, *next;

	for (s = st->list; s; s = next) {
		next = s->next;
		close(s->writer);
		free(s);
	}
	st->list = NULL;
	share_reap();
	pthread_mutex_unlock(&st->lock);
}

static void install_fork_handlers(void)
{
	pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
}

/* exit() must not cut the thread off between taking a signal and writing
 * its record: let it finish, end it, and keep any other from starting. The
 * lock stays held; the process is ending. */
__attribute__((destructor)) static void stop_forwarding_at_exit(void)
{
	pthread_mutex_lock(&share_state.lock);
	share_stop();
	share_reap();
}

static sigbits bits_of(const sigset_t *mask)
{
	sigbits bits = 0;

	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(mask, sig) == 1)
			bits |= SIGBIT(sig);
	return bits;
}

static socklen_t share_name(struct sockaddr_un *addr, ino_t ino)
{
	int len;

	memset(addr, 0, sizeof *addr);
	addr->sun_family = AF_UNIX;
	/* sun_path[0] stays 0: the abstract namespace. */
	len = snprintf(addr->sun_path + 1, sizeof addr->sun_path - 1, SHARE_NAME_PREFIX "%ld/%llu",
		       (long)getpid(), (unsigned long long)ino);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)len);
}

static bool is_named_share(int fd)
{
	struct sockaddr_un addr;
	socklen_t len = sizeof addr;
	size_t plen = strlen(SHARE_NAME_PREFIX);

	if (getsockname(fd, (struct sockaddr *)&addr, &len) < 0)
		return false;
	return len > offsetof(struct sockaddr_un, sun_path) + 1 + plen && addr.sun_path[0] == 0 &&
	       memcmp(addr.sun_path + 1, SHARE_NAME_PREFIX, plen) == 0;
}

/* What a socket buffer of k records adds to the writer's TIOCOUTQ, for k up
 * to SHARE_RUN. Measured, since it differs between kernels, on a pair of our
 * own before the reader is handed out. */
static int measure_buffer_costs(int reader, int writer)
{
	struct sigfd_siginfo probe[SHARE_RUN];
	unsigned cost[SHARE_RUN + 1];

	memset(probe, 0, sizeof probe);
	for (unsigned k = 1; k <= SHARE_RUN; k++) {
		ssize_t len = (ssize_t)(k * sizeof probe[0]), got = 0;
		int queued;

		if (write(writer, probe, (size_t)len) != len)
			return -1;
		if (ioctl(writer, TIOCOUTQ, &queued) < 0 || queued <= 0)
			return -1;
		while (got < len) {
			ssize_t r = read(reader, (char *)probe + got, (size_t)(len - got));
			if (r <= 0)
				return -1;
			got += r;
		}
		cost[k] = (unsigned)queued;
	}
	/* All or nothing: buf_cost[1] != 0 says the table is whole. */
	memcpy(share_state.buf_cost + 1, cost + 1, SHARE_RUN * sizeof cost[0]);
	return 0;
}

/* Size the writer's send buffer so that a full share fd still leaves it
 * writable: a unix stream socket is writable while 4 * queued <= sndbuf (the
 * kernel doubles what it is given). Then a write never blocks or stops
 * short, and each buffer the reader frees signals EPOLLOUT. */
static int size_writer(struct share *s)
{
	unsigned per_record = 0;
	int want, got;
	socklen_t len = sizeof got;

	for (unsigned k = 1; k <= SHARE_RUN; k++) {
		unsigned c = (share_state.buf_cost[k] + k - 1) / k;
		if (c > per_record)
			per_record = c;
	}
	want = (int)(2 * per_record * SHARE_CAPACITY);
	if (setsockopt(s->writer, SOL_SOCKET, SO_SNDBUF, &want, sizeof want) < 0 ||
	    getsockopt(s->writer, SOL_SOCKET, SO_SNDBUF, &got, &len) < 0)
		return -1;
	s->capacity = (unsigned)got / (4 * per_record);
	if (s->capacity > SHARE_CAPACITY)
		s->capacity = SHARE_CAPACITY;
	if (s->capacity == 0) {
		errno = ENOBUFS; /* net.core.wmem_max too small to hold one record */
		return -1;
	}
	return 0;
}

static int setup_pair(struct share *s, int reader, unsigned long flags)
{
	struct sockaddr_un addr;
	struct stat st;

	if (fstat(reader, &st) < 0)
		return -1;
	s->dev = st.st_dev;
	s->ino = st.st_ino;
	if (bind(reader, (struct sockaddr *)&addr, share_name(&addr, st.st_ino)) < 0)
		return -1;
	/* Records only flow one way. */
	if (shutdown(reader, SHUT_WR) < 0)
		return -1;
	if (fcntl(s->writer, F_SETFL, O_NONBLOCK) < 0)
		return -1;
	if ((flags & SIGFD_NONBLOCK) && fcntl(reader, F_SETFL, O_NONBLOCK) < 0)
		return -1;
	if (!(flags & SIGFD_CLOEXEC) && fcntl(reader, F_SETFD, 0) < 0)
		return -1;
	if (share_state.buf_cost[1] == 0 && measure_buffer_costs(reader, s->writer) < 0)
		return -1;
	return size_writer(s);
}

int sigfd_share_user_open(const sigset_t *mask, unsigned long flags)
{
	struct share *s, **tail;
	int pair[2], saved;

	pthread_once(&fork_handlers_once, install_fork_handlers);
	s = calloc(1, sizeof *s);
	if (!s)
		return -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) < 0) {
		free(s);
		return -1;
	}
	s->writer = pair[1];
	s->mask = bits_of(mask);

	pthread_mutex_lock(&share_state.lock);
	share_reap();
	if (setup_pair(s, pair[0], flags) < 0)
		goto fail;
	for (tail = &share_state.list; *tail; tail = &(*tail)->next)
		;
	*tail = s;
	if (share_serve() < 0) {
		*tail = NULL;
		goto fail;
	}
	share_update_mask();
	pthread_mutex_unlock(&share_state.lock);
	return pair[0];

fail:
	saved = errno;
	pthread_mutex_unlock(&share_state.lock);
	close(pair[0]);
	close(pair[1]);
	free(s);
	errno = saved;
	return -1;
}

int sigfd_share_user_setmask(int fd, const sigset_t *mask)
{
	struct stat st;
	struct share *s;

	if (fstat(fd, &st) < 0)
		return -1;
	if (!S_ISSOCK(st.st_mode))
		return SIGFD_NOT_MINE;
	pthread_mutex_lock(&share_state.lock);
	share_reap();
	for (s = share_state.list; s; s = s->next)
		if (s->dev == st.st_dev && s->ino == st.st_ino)
			break;
	if (s) {
		/* Applied before we return: a signal just removed from the
		 * mask is not taken any more, it stays pending. */
		s->mask = bits_of(mask);
		share_update_mask();
		share_serve();
	}
	pthread_mutex_unlock(&share_state.lock);
	if (s)
		return 0;
	if (is_named_share(fd)) {
		errno = EPERM; /* another process's share fd, or ours from before exec */
		return -1;
	}
	return SIGFD_NOT_MINE;
}
