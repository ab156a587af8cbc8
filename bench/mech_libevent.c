/* SPDX-License-Identifier: MIT */
/* libevent evsignal_new: libevent's handler counts the signal and sends a
 * byte over a socketpair; the callback runs once per counted signal, with
 * no siginfo. */
#include "bench.h"
#include "config.h"

#if BENCH_HAVE_LIBEVENT
#include <event2/event.h>
#include <stdlib.h>
#include <string.h>

struct les {
	struct event_base *base;
	struct event *sig, *timer;
	int signo, timed_out;
	long pending;
};

static void on_sig(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	((struct les *)arg)->pending++;
}

static void on_timer(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	((struct les *)arg)->timed_out = 1;
}

static void les_teardown(void *st)
{
	struct les *s = st;

	if (s->sig)
		event_free(s->sig);
	if (s->timer)
		event_free(s->timer);
	if (s->base)
		event_base_free(s->base);
	free(s);
}

static void *les_setup(int signo, char *err, size_t n)
{
	struct les *s = calloc(1, sizeof *s);

	if (!s) {
		errf(err, n, "calloc");
		return NULL;
	}
	s->signo = signo;
	/* libev exports the same event_* names; make sure these are libevent's. */
	if (strncmp(event_get_version(), "2.", 2) != 0) {
		errf(err, n, "event_* resolved to %s, not libevent (link order)", event_get_version());
		free(s);
		return NULL;
	}
	s->base = event_base_new();
	if (s->base) {
		s->sig = evsignal_new(s->base, signo, on_sig, s);
		s->timer = evtimer_new(s->base, on_timer, s);
	}
	if (!s->sig || !s->timer || event_add(s->sig, NULL) < 0) {
		errf(err, n, "libevent setup failed");
		les_teardown(s);
		return NULL;
	}
	return s;
}

static int les_one(void *st, struct rec *out, int timeout_ms)
{
	struct les *s = st;

	if (!s->pending && timeout_ms >= 0) {
		struct timeval tv = { timeout_ms / 1000, (timeout_ms % 1000) * 1000 };
		s->timed_out = 0;
		evtimer_add(s->timer, &tv);
	}
	while (!s->pending && !(timeout_ms >= 0 && s->timed_out))
		event_base_loop(s->base, EVLOOP_ONCE);
	if (timeout_ms >= 0)
		evtimer_del(s->timer);
	return take_counted(&s->pending, s->signo, out);
}

const struct mech mech_libevent = {
	.name = "libevent",
	.what = "libevent evsignal_new callback (handler -> socketpair -> loop)",
	.setup = les_setup,
	.wait_one = les_one,
	.teardown = les_teardown,
};
#else
const struct mech mech_libevent = {
	.name = "libevent",
	.what = "libevent evsignal_new callback (handler -> socketpair -> loop)",
	.missing = BENCH_MISSING("libevent-dev"),
};
#endif
