/* SPDX-License-Identifier: MIT */
/* The raw kernel signalfd, read directly and through epoll: the reference
 * every other figure is divided by. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "bench.h"

#define MAXB 64

/* Reads whole records. A blocking read of a signalfd or a datagram socket
 * always yields whole records; a stream socket might split one, so the
 * rest of a partial record is read before returning. */
int fdrec_read(int fd, struct rec *out, int max, int timeout_ms)
{
	struct signalfd_siginfo buf[MAXB];
	ssize_t r;

	if (max > MAXB)
		max = MAXB;
	if (timeout_ms >= 0) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int n;
		do
			n = poll(&p, 1, timeout_ms);
		while (n < 0 && errno == EINTR);
		if (n <= 0)
			return n;
	}
	do
		r = read(fd, buf, (size_t)max * sizeof buf[0]);
	while (r < 0 && errno == EINTR);
	if (r <= 0) {
		if (r == 0)
			errno = EPIPE;
		return -1;
	}
	size_t part = (size_t)r % sizeof buf[0];
	if (part && read_all(fd, (char *)buf + r, sizeof buf[0] - part) < 0)
		return -1;
	int n = (int)(((size_t)r + sizeof buf[0] - 1) / sizeof buf[0]);
	for (int i = 0; i < n; i++) {
		out[i].signo = (int)buf[i].ssi_signo;
		out[i].value = buf[i].ssi_int;
	}
	return n;
}

struct sfd {
	int fd, ep;
};

static void *sfd_setup(int signo, char *err, size_t n, int nonblock)
{
	sigset_t set;
	struct sfd *s = calloc(1, sizeof *s);

	sigemptyset(&set);
	sigaddset(&set, signo);
	if (!s || block_sig(signo) < 0) {
		errf(err, n, "setup: %s", strerror(errno));
		free(s);
		return NULL;
	}
	s->ep = -1;
	s->fd = signalfd(-1, &set, SFD_CLOEXEC | (nonblock ? SFD_NONBLOCK : 0));
	if (s->fd < 0) {
		errf(err, n, "signalfd: %s", strerror(errno));
		free(s);
		return NULL;
	}
	return s;
}

static void *plain_setup(int signo, char *err, size_t n)
{
	return sfd_setup(signo, err, n, 0);
}

static int plain_one(void *st, struct rec *out, int timeout_ms)
{
	return fdrec_read(((struct sfd *)st)->fd, out, 1, timeout_ms);
}

static int plain_batch(void *st, struct rec *out, int max, int timeout_ms)
{
	return fdrec_read(((struct sfd *)st)->fd, out, max, timeout_ms);
}

static void sfd_teardown(void *st)
{
	struct sfd *s = st;

	close(s->fd);
	if (s->ep >= 0)
		close(s->ep);
	free(s);
}

const struct mech mech_signalfd = {
	.name = "signalfd",
	.what = "raw signalfd(2), blocking read (the reference)",
	.flags = M_VALUES,
	.setup = plain_setup,
	.wait_one = plain_one,
	.wait_batch = plain_batch,
	.teardown = sfd_teardown,
};

/* Through epoll, as an event loop would: epoll_wait, then a non-blocking
 * read that may find the record already taken. */
static void *ep_setup(int signo, char *err, size_t n)
{
	struct sfd *s = sfd_setup(signo, err, n, 1);
	struct epoll_event ev = { .events = EPOLLIN };

	if (!s)
		return NULL;
	s->ep = epoll_create1(EPOLL_CLOEXEC);
	if (s->ep < 0 || epoll_ctl(s->ep, EPOLL_CTL_ADD, s->fd, &ev) < 0) {
		errf(err, n, "epoll: %s", strerror(errno));
		sfd_teardown(s);
		return NULL;
	}
	return s;
}

static int ep_batch(void *st, struct rec *out, int max, int timeout_ms)
{
	struct sfd *s = st;
	struct epoll_event ev;

	for (;;) {
		int n = epoll_wait(s->ep, &ev, 1, timeout_ms);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n;
		n = fdrec_read(s->fd, out, max, -1);
		if (n < 0 && errno == EAGAIN)
			continue;
		return n;
	}
}

static int ep_one(void *st, struct rec *out, int timeout_ms)
{
	return ep_batch(st, out, 1, timeout_ms);
}

const struct mech mech_signalfd_epoll = {
	.name = "signalfd-epoll",
	.what = "raw signalfd, epoll_wait then non-blocking read",
	.flags = M_VALUES,
	.setup = ep_setup,
	.wait_one = ep_one,
	.wait_batch = ep_batch,
	.teardown = sfd_teardown,
};
