/* SPDX-License-Identifier: MIT */
/* sigfd-watch: print the signals this process receives, one line each; the
 * modern form of the 2003 sigfd() example program. With -- COMMAND it runs
 * COMMAND as an init does (watch_run.c): the log then says who signalled
 * COMMAND. See sigfd-watch(1). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
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

static int watch(const struct watch_args *a)
{
	struct timespec deadline;
	unsigned long long seen = 0, tick;
	struct sigfd_siginfo rec;
	struct watch_log log;
	int fd, n = set_size(&a->set);

	/* A closed standard output would be given to our sigfd, and the log
	 * written into that. */
	if ((!a->output || !strcmp(a->output, "-")) && fcntl(STDOUT_FILENO, F_GETFD) < 0)
		die(EXIT_SYSTEM, "standard output: %s", strerror(errno));
	fd = take_signals(&a->set);

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

/* A system error's status before the options are taken: that of a run
 * with a COMMAND when the command line alone names one. */
static int system_status(int argc, char **argv)
{
	struct watch_args a;
	char msg[512];

	if (watch_parse(argc, argv, &a, msg, sizeof msg) == 0 && a.command)
		return EXIT_WRAP_SYSTEM;
	return EXIT_SYSTEM;
}

int main(int argc, char **argv)
{
	struct watch_args a;
	char msg[512], **all;

	if (!(all = watch_env_argv(&argc, argv, msg, sizeof msg)))
		die(errno == ENOMEM ? system_status(argc, argv) : EXIT_USAGE, "%s", msg);
	argv = all;
	if (watch_parse(argc, argv, &a, msg, sizeof msg) < 0)
		die(EXIT_USAGE, "%s%s", msg,
		    getenv(WATCH_ENV) ? " (" WATCH_ENV " is set: its words come first)" : "");
	if (a.action != ARGS_RUN) {
		if (a.action == ARGS_HELP)
			fputs(watch_usage, stdout);
		else
			printf("sigfd-watch (sigfd) %s\n", tools_version);
		/* ferror(): a write that failed before the flush (musl) */
		if (fflush(stdout) == 0 && !ferror(stdout))
			return EXIT_DONE;
		die(EXIT_SYSTEM, "standard output: %s", strerror(errno));
	}
	return a.command ? run_command(&a) : watch(&a);
}
