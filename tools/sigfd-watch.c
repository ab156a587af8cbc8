/* SPDX-License-Identifier: MIT */
/* sigfd-watch: print the signals this process receives, one line each; the
 * modern form of the 2003 sigfd() example program. With -- COMMAND it runs
 * COMMAND as an init does (watch_run.c): the log then says who signalled
 * COMMAND. See sigfd-watch(1). */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "sender.h"
#include "sigfd.h"
#include "watch.h"
#include "watch_env.h"

static int set_size(const sigset_t *set)
{
	int n = 0;

	for (int sig = 1; sig < NSIG; sig++)
		n += sigismember(set, sig) == 1;
	return n;
}

int ms_until(const struct timespec *deadline)
{
	struct timespec now;
	long long ns;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ns = (long long)(deadline->tv_sec - now.tv_sec) * 1000000000LL +
	     (deadline->tv_nsec - now.tv_nsec);
	if (ns <= 0)
		return 0;
	ns = (ns + 999999) / 1000000; /* up: poll() must never return early */
	return ns > INT_MAX ? INT_MAX : (int)ns;
}

struct timespec deadline_after(const struct timespec *d)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_sec += d->tv_sec;
	t.tv_nsec += d->tv_nsec;
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	return t;
}

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

static int watch(const struct watch_args *a)
{
	struct timespec deadline;
	unsigned long long seen = 0, tick;
	struct sigfd_siginfo rec;
	struct watch_log log;
	int fd = take_signals(&a->set), n = set_size(&a->set);

	log_open(&log, a);
	warn("watching pid %ld for %d signal%s", (long)getpid(), n, n == 1 ? "" : "s");
	if (a->timed)
		deadline = deadline_after(&a->timeout);
	for (;;) {
		/* Checked before each wait, so a steady stream of signals cannot
		 * keep it going past the deadline. One record at a time: we may
		 * stop after any, and what is not read stays pending. */
		int ms = a->timed ? ms_until(&deadline) : -1;
		if (ms == 0 || !next_records(fd, ms, &rec, 1, &tick))
			break;
		if (log_record(&log, &rec, tick, -1) < 0) {
			/* A reader that went away (EPIPE) ends us quietly; SIGPIPE
			 * itself may be one we block. */
			if (errno == EPIPE)
				exit(EXIT_SYSTEM);
			die(EXIT_SYSTEM, "writing output: %s", strerror(errno));
		}
		if ((a->count && ++seen >= a->count) || rec.ssi_signo == SIGINT ||
		    rec.ssi_signo == SIGTERM) {
			close(fd);
			return EXIT_DONE;
		}
	}
	close(fd);
	return EXIT_TIMEOUT;
}

int main(int argc, char **argv)
{
	struct watch_args a;
	char msg[512];

	if (!(argv = watch_env_argv(&argc, argv, msg, sizeof msg)))
		die(EXIT_USAGE, "%s", msg);
	if (watch_parse(argc, argv, &a, msg, sizeof msg) < 0)
		die(EXIT_USAGE, "%s%s", msg,
		    getenv(WATCH_ENV) ? " (" WATCH_ENV " is set: its words come first)" : "");
	if (a.action != ARGS_RUN) {
		if (a.action == ARGS_HELP)
			fputs(watch_usage, stdout);
		else
			printf("sigfd-watch (sigfd) %s\n", tools_version);
		return fflush(stdout) == 0 ? EXIT_DONE : EXIT_SYSTEM;
	}
	return a.command ? run_command(&a) : watch(&a);
}
