/* SPDX-License-Identifier: MIT */
/* The self-pipe trick: an SA_SIGINFO handler writes the siginfo_t it was
 * given into a non-blocking pipe, the loop polls the read end. When the
 * pipe is full the handler can only drop the signal. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

#define MAXB 64

static int pipe_w = -1; /* the handler's only state */

static void handler(int signo, siginfo_t *si, void *ctx)
{
	int saved = errno;

	(void)signo;
	(void)ctx;
	if (write(pipe_w, si, sizeof *si) < 0) {
		/* EAGAIN: full, the signal is lost. Nothing else is safe here. */
	}
	errno = saved;
}

struct sp {
	int r, w;
};

static void *sp_setup(int signo, char *err, size_t n)
{
	struct sp *s = malloc(sizeof *s);
	int fds[2];
	struct sigaction sa = { .sa_sigaction = handler, .sa_flags = SA_SIGINFO | SA_RESTART };

	if (!s || pipe2(fds, O_NONBLOCK | O_CLOEXEC) < 0) {
		errf(err, n, "pipe2: %s", strerror(errno));
		free(s);
		return NULL;
	}
	s->r = fds[0];
	s->w = pipe_w = fds[1];
	sigemptyset(&sa.sa_mask);
	if (sigaction(signo, &sa, NULL) < 0) {
		errf(err, n, "sigaction: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		free(s);
		return NULL;
	}
	return s;
}

static int sp_batch(void *st, struct rec *out, int max, int timeout_ms)
{
	struct sp *s = st;
	siginfo_t buf[MAXB];
	struct pollfd p = { .fd = s->r, .events = POLLIN };

	if (max > MAXB)
		max = MAXB;
	for (;;) {
		int n = poll(&p, 1, timeout_ms);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n;
		ssize_t r = read(s->r, buf, (size_t)max * sizeof buf[0]);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r <= 0)
			return -1;
		/* Writes of sizeof(siginfo_t) <= PIPE_BUF are atomic, so r is
		 * a whole number of records. */
		n = (int)((size_t)r / sizeof buf[0]);
		for (int i = 0; i < n; i++) {
			out[i].signo = buf[i].si_signo;
			out[i].value = buf[i].si_value.sival_int;
		}
		return n;
	}
}

static int sp_one(void *st, struct rec *out, int timeout_ms)
{
	return sp_batch(st, out, 1, timeout_ms);
}

static void sp_teardown(void *st)
{
	struct sp *s = st;

	close(s->r);
	close(s->w);
	free(s);
}

const struct mech mech_selfpipe = {
	.name = "self-pipe",
	.what = "SA_SIGINFO handler writes siginfo_t to a pipe; poll + read",
	.flags = M_VALUES,
	.setup = sp_setup,
	.wait_one = sp_one,
	.wait_batch = sp_batch,
	.teardown = sp_teardown,
};
