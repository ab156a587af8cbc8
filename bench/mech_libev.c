/* SPDX-License-Identifier: MIT */
/* libev ev_signal, default (handler sets a flag and writes the loop's
 * event pipe) and with EVFLAG_SIGNALFD (libev reads a signalfd itself).
 * Either way the callback carries no count: deliveries between two loop
 * iterations coalesce into one callback. */
#include "bench.h"
#include "config.h"

#if BENCH_HAVE_LIBEV
#include <dirent.h>
#include <stdio.h>
#include <ev.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct evs {
	struct ev_loop *loop;
	ev_signal sig;
	ev_timer timer;
	int signo, timed_out;
	long pending;
};

static void on_sig(struct ev_loop *loop, ev_signal *w, int revents)
{
	(void)loop;
	(void)revents;
	((struct evs *)w->data)->pending++;
}

static void on_timer(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)loop;
	(void)revents;
	((struct evs *)w->data)->timed_out = 1;
}

/* EVFLAG_SIGNALFD is only a request: check libev really opened one. */
static int has_signalfd(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	char path[300], target[64];
	int found = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) && !found) {
		snprintf(path, sizeof path, "/proc/self/fd/%s", e->d_name);
		ssize_t n = readlink(path, target, sizeof target - 1);
		if (n > 0) {
			target[n] = 0;
			found = strstr(target, "signalfd") != NULL;
		}
	}
	closedir(d);
	return found;
}

static void *evs_setup_flags(int signo, char *err, size_t n, unsigned flags)
{
	struct evs *s = calloc(1, sizeof *s);

	if (!s) {
		errf(err, n, "calloc");
		return NULL;
	}
	s->signo = signo;
	s->loop = ev_default_loop(EVFLAG_NOENV | flags);
	if (!s->loop) {
		errf(err, n, "ev_default_loop failed");
		free(s);
		return NULL;
	}
	ev_signal_init(&s->sig, on_sig, signo);
	s->sig.data = s;
	ev_signal_start(s->loop, &s->sig);
	ev_timer_init(&s->timer, on_timer, 0., 0.);
	s->timer.data = s;
	if ((flags & EVFLAG_SIGNALFD) && !has_signalfd()) {
		errf(err, n, "libev did not open a signalfd despite EVFLAG_SIGNALFD");
		free(s);
		return NULL;
	}
	return s;
}

static void *evs_setup(int signo, char *err, size_t n)
{
	return evs_setup_flags(signo, err, n, 0);
}

static void *evs_setup_sfd(int signo, char *err, size_t n)
{
	return evs_setup_flags(signo, err, n, EVFLAG_SIGNALFD);
}

static int evs_one(void *st, struct rec *out, int timeout_ms)
{
	struct evs *s = st;

	if (!s->pending && timeout_ms >= 0) {
		s->timed_out = 0;
		ev_timer_set(&s->timer, timeout_ms / 1000., 0.);
		ev_timer_start(s->loop, &s->timer);
	}
	while (!s->pending && !(timeout_ms >= 0 && s->timed_out))
		ev_run(s->loop, EVRUN_ONCE);
	if (timeout_ms >= 0)
		ev_timer_stop(s->loop, &s->timer);
	return take_counted(&s->pending, s->signo, out);
}

static void evs_teardown(void *st)
{
	struct evs *s = st;

	ev_signal_stop(s->loop, &s->sig);
	free(s);
}

const struct mech mech_libev = {
	.name = "libev",
	.what = "libev ev_signal, default (handler -> flag + event pipe)",
	.flags = M_COALESCE,
	.setup = evs_setup,
	.wait_one = evs_one,
	.teardown = evs_teardown,
};

const struct mech mech_libev_signalfd = {
	.name = "libev-signalfd",
	.what = "libev ev_signal with EVFLAG_SIGNALFD (libev reads a signalfd)",
	.flags = M_COALESCE,
	.setup = evs_setup_sfd,
	.wait_one = evs_one,
	.teardown = evs_teardown,
};
#else
#define LIBEV_MISSING BENCH_MISSING("libev-dev")
const struct mech mech_libev = {
	.name = "libev",
	.what = "libev ev_signal, default (handler -> flag + event pipe)",
	.flags = M_COALESCE,
	.missing = LIBEV_MISSING,
};

const struct mech mech_libev_signalfd = {
	.name = "libev-signalfd",
	.what = "libev ev_signal with EVFLAG_SIGNALFD (libev reads a signalfd)",
	.flags = M_COALESCE,
	.missing = LIBEV_MISSING,
};
#endif
