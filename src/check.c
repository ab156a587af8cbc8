/* SPDX-License-Identifier: MIT */
/* Which threads leave a signal unblocked: such a thread takes the signal
 * with its usual action and the descriptor never reports it. Linux shows
 * each thread's blocked mask as SigBlk in /proc/self/task/TID/status. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sigfd.h"
#include "taken.h"
#include "tasks.h"

#define PUBLIC __attribute__((visibility("default")))

struct unblocked_count {
	uint64_t want;
	pid_t *tids;
	size_t ntids;
	int found;
};

/* Counts t when it lives and leaves a signal of want unblocked; a main
 * thread that called pthread_exit() takes no signal. */
static bool count_unblocked(const struct task *t, void *arg)
{
	struct unblocked_count *c = arg;

	if (!t) {
		c->found = 0;
		return false;
	}
	if (!t->live || !(t->unblocked & c->want))
		return false;
	if ((size_t)c->found < c->ntids)
		c->tids[c->found] = (pid_t)atoi(t->name);
	if (c->found < INT32_MAX)
		c->found++;
	return false;
}

static int unblocked_threads(const sigset_t *mask, pid_t *tids, size_t ntids)
{
	struct unblocked_count count = { 0, tids, ntids, 0 };
	int saved = errno;

	if (!mask || (!tids && ntids)) {
		errno = EINVAL;
		return -1;
	}
	/* The signals sigfd() would take: not the C library's own, which
	 * sigaddset() refuses and no thread can block. */
	for (int sig = 1; sig < NSIG; sig++) {
		sigset_t one;

		sigemptyset(&one);
		if (sig != SIGKILL && sig != SIGSTOP && sigismember(mask, sig) == 1 &&
		    sigaddset(&one, sig) == 0)
			count.want |= SIGFD_BIT(sig);
	}
	if (tasks_each(true, 0, count_unblocked, &count) < 0)
		return -1;
	errno = saved;
	return count.found;
}

/* Not a cancellation point: a request acting in opendir() or read() would
 * leak the stream or the descriptor. The caller's state is given back. */
PUBLIC int sigfd_unblocked_threads(const sigset_t *mask, pid_t *tids, size_t ntids)
{
	int cancel_state, n;

	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel_state);
	n = unblocked_threads(mask, tids, ntids);
	pthread_setcancelstate(cancel_state, NULL);
	return n;
}

/* One write(), so the line is not split; SIGPIPE from a closed stderr is
 * blocked and taken back, since the caller may not expect it. */
static void say(const char *line, size_t len)
{
	sigset_t pipe_set, old, pending;
	int was_pending;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	if (pthread_sigmask(SIG_BLOCK, &pipe_set, &old))
		return;
	was_pending = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1;
	if (write(2, line, len) < 0 && errno == EPIPE && !was_pending) {
		struct timespec now = {0, 0};
		sigtimedwait(&pipe_set, NULL, &now);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void sigfd_debug_check(int fd, const sigset_t *set)
{
	const char *debug = getenv("SIGFD_DEBUG");
	int saved = errno, n, len;
	pid_t tids[8];
	char line[256];

	if (!debug || strcmp(debug, "1") != 0)
		return;
	n = unblocked_threads(set, tids, sizeof tids / sizeof tids[0]);
	if (n < 0)
		len = snprintf(line, sizeof line, "sigfd: SIGFD_DEBUG: fd %d: cannot check threads: %s\n",
			       fd, strerror(errno));
	else if (n > 0) {
		len = snprintf(line, sizeof line,
			       "sigfd: warning: fd %d: its signals are not all blocked in %d thread%s (tid",
			       fd, n, n == 1 ? "" : "s");
		for (int i = 0; i < n && i < 8; i++)
			len += snprintf(line + len, sizeof line - (size_t)len, " %d", (int)tids[i]);
		len += snprintf(line + len, sizeof line - (size_t)len,
				"%s), which take%s them instead of the descriptor\n",
				n > 8 ? " ..." : "", n == 1 ? "s" : "");
	} else
		len = 0;
	if (len > 0)
		say(line, (size_t)len < sizeof line ? (size_t)len : sizeof line - 1);
	errno = saved;
}
