/* SPDX-License-Identifier: MIT */
/* sigwaitinfo(2): the signal stays blocked and is dequeued synchronously;
 * no descriptor, so it cannot sit in a poll set, and no batching. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

struct sw {
	sigset_t set;
};

static void *sw_setup(int signo, char *err, size_t n)
{
	struct sw *s = malloc(sizeof *s);

	if (!s || block_sig(signo) < 0) {
		errf(err, n, "setup: %s", strerror(errno));
		free(s);
		return NULL;
	}
	sigemptyset(&s->set);
	sigaddset(&s->set, signo);
	return s;
}

static int sw_one(void *st, struct rec *out, int timeout_ms)
{
	struct sw *s = st;
	siginfo_t si;
	int r;

	if (timeout_ms < 0) {
		do
			r = sigwaitinfo(&s->set, &si);
		while (r < 0 && errno == EINTR);
	} else {
		struct timespec ts = { timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000 };
		do
			r = sigtimedwait(&s->set, &si, &ts);
		while (r < 0 && errno == EINTR);
		if (r < 0 && errno == EAGAIN)
			return 0;
	}
	if (r < 0)
		return -1;
	out->signo = r;
	out->value = si.si_value.sival_int;
	return 1;
}

static void sw_teardown(void *st)
{
	free(st);
}

const struct mech mech_sigwaitinfo = {
	.name = "sigwaitinfo",
	.what = "sigwaitinfo(2) on the blocked signal",
	.flags = M_VALUES,
	.setup = sw_setup,
	.wait_one = sw_one,
	.teardown = sw_teardown,
};
