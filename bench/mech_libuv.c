/* SPDX-License-Identifier: MIT */
/* libuv uv_signal_t: libuv's handler writes {handle, signum} into the
 * loop's signal pipe (dropped when full); the callback gets signum only. */
#include "bench.h"
#include "config.h"

#if BENCH_HAVE_LIBUV
#include <stdlib.h>
#include <uv.h>

struct uvs {
	uv_loop_t loop;
	uv_signal_t sig;
	uv_timer_t timer;
	int signo, timed_out;
	long pending; /* callbacks not yet handed out */
};

static void on_sig(uv_signal_t *h, int signum)
{
	(void)signum;
	((struct uvs *)h->data)->pending++;
}

static void on_timer(uv_timer_t *t)
{
	((struct uvs *)t->data)->timed_out = 1;
}

static void *uvs_setup(int signo, char *err, size_t n)
{
	struct uvs *s = calloc(1, sizeof *s);
	int r;

	if (!s) {
		errf(err, n, "calloc");
		return NULL;
	}
	s->signo = signo;
	if ((r = uv_loop_init(&s->loop)) < 0 || (r = uv_signal_init(&s->loop, &s->sig)) < 0 ||
	    (r = uv_timer_init(&s->loop, &s->timer)) < 0 ||
	    (r = uv_signal_start(&s->sig, on_sig, signo)) < 0) {
		errf(err, n, "libuv: %s", uv_strerror(r));
		free(s);
		return NULL;
	}
	s->sig.data = s->timer.data = s;
	return s;
}

/* One record per callback, as a libuv program sees them: the loop runs
 * until at least one callback has fired. */
static int uvs_one(void *st, struct rec *out, int timeout_ms)
{
	struct uvs *s = st;

	if (!s->pending && timeout_ms >= 0) {
		s->timed_out = 0;
		uv_timer_start(&s->timer, on_timer, (uint64_t)timeout_ms, 0);
	}
	while (!s->pending && !(timeout_ms >= 0 && s->timed_out))
		uv_run(&s->loop, UV_RUN_ONCE);
	if (timeout_ms >= 0)
		uv_timer_stop(&s->timer);
	return take_counted(&s->pending, s->signo, out);
}

static void uvs_teardown(void *st)
{
	struct uvs *s = st;

	uv_close((uv_handle_t *)&s->sig, NULL);
	uv_close((uv_handle_t *)&s->timer, NULL);
	uv_run(&s->loop, UV_RUN_DEFAULT);
	uv_loop_close(&s->loop);
	free(s);
}

const struct mech mech_libuv = {
	.name = "libuv",
	.what = "libuv uv_signal_t callback (handler -> pipe -> loop)",
	.setup = uvs_setup,
	.wait_one = uvs_one,
	.teardown = uvs_teardown,
};
#else
const struct mech mech_libuv = {
	.name = "libuv",
	.what = "libuv uv_signal_t callback (handler -> pipe -> loop)",
	.missing = BENCH_MISSING("libuv1-dev"),
};
#endif
