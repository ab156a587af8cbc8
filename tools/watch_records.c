/* SPDX-License-Identifier: MIT */
/* Taking the signals sigfd-watch logs, and waiting for their records
 * (watch.h). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "sender.h"
#include "sigfd.h"
#include "watch.h"

/* Block take and return a sigfd for it. A blocked signal is queued whatever
 * its action, except that an inherited SIG_IGN for SIGCHLD makes the kernel
 * send none at all: every ignored one gets its default action back (a
 * COMMAND gets the inherited actions again, from sigfd_restore_signals). */
int take_signals(const sigset_t *take)
{
	int fd;

	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction sa;
		if (sigismember(take, sig) == 1 && sigaction(sig, NULL, &sa) == 0 &&
		    sa.sa_handler == SIG_IGN) {
			sa.sa_handler = SIG_DFL;
			sigaction(sig, &sa, NULL);
		}
	}
	if (sigprocmask(SIG_BLOCK, take, NULL) < 0)
		die(say_system_status, "sigprocmask: %s", strerror(errno));
	if ((fd = sigfd(take, SIGFD_CLOEXEC | SIGFD_NONBLOCK)) < 0)
		die(say_system_status, "sigfd: %s", strerror(errno));
	return fd;
}

int next_records(int fd, int ms, struct sigfd_siginfo *recs, int n,
		 unsigned long long *read_tick)
{
	for (;;) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int r = poll(&p, 1, ms);
		if (r < 0 && errno == EINTR)
			continue; /* e.g. after SIGSTOP/SIGCONT */
		if (r < 0)
			die(say_system_status, "poll: %s", strerror(errno));
		if (r == 0)
			return 0;
		ssize_t len = read(fd, recs, sizeof *recs * (size_t)n);
		/* Every record read arrived before this moment: a process that
		 * started later cannot have sent it (sender.h). */
		*read_tick = sender_tick_now();
		if (len < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (len < 0)
			die(say_system_status, "read: %s", strerror(errno));
		if (len == 0 || len % (ssize_t)sizeof *recs)
			die(say_system_status, "read: short record");
		return (int)(len / (ssize_t)sizeof *recs);
	}
}
