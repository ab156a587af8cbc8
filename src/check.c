/* SPDX-License-Identifier: MIT */
/* Which threads leave a signal unblocked: such a thread takes the signal
 * with its usual action and the descriptor never reports it. Linux shows
 * each thread's blocked mask as SigBlk in /proc/self/task/TID/status. */
#include <dirent.h>
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

#define PUBLIC __attribute__((visibility("default")))

/* SigBlk of thread tid into *blocked: 1, 0 when the thread has ended, or
 * -1 and errno. */
static int thread_blocked(const char *tid, uint64_t *blocked)
{
	char path[64], buf[4096];
	size_t len = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof path, "/proc/self/task/%s/status", tid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return errno == ENOENT || errno == ESRCH ? 0 : -1;
	while (len < sizeof buf - 1 &&
	       ((n = read(fd, buf + len, sizeof buf - 1 - len)) > 0 || (n < 0 && errno == EINTR)))
		if (n > 0)
			len += (size_t)n;
	int read_errno = errno;
	close(fd);
	if (n < 0) {
		errno = read_errno;
		return read_errno == ESRCH ? 0 : -1;
	}
	buf[len] = '\0';
	const char *line = strstr(buf, "\nSigBlk:");
	if (!line) {
		errno = ENOSYS;
		return -1;
	}
	*blocked = strtoull(line + 8, NULL, 16);
	return 1;
}

static int unblocked_threads(const sigset_t *mask, pid_t *tids, size_t ntids)
{
	int saved = errno, found = 0;
	uint64_t want = 0, blocked;
	struct dirent *e;
	DIR *d;

	if (!mask || (!tids && ntids)) {
		errno = EINVAL;
		return -1;
	}
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP && sigismember(mask, sig) == 1)
			want |= SIGFD_BIT(sig);
	if (!(d = opendir("/proc/self/task")))
		return -1;
	while ((errno = 0, e = readdir(d))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		int r = thread_blocked(e->d_name, &blocked);
		if (r < 0) {
			int err = errno;
			closedir(d);
			errno = err;
			return -1;
		}
		if (r == 0 || (blocked & want) == want)
			continue;
		if ((size_t)found < ntids)
			tids[found] = (pid_t)atoi(e->d_name);
		if (found < INT32_MAX)
			found++;
	}
	int err = errno;
	closedir(d);
	if (err) {
		errno = err;
		return -1;
	}
	errno = saved;
	return found;
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
