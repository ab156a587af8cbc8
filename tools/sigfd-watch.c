/* SPDX-License-Identifier: MIT */
/* sigfd-watch: print the signals this process receives, one line each; the
 * modern form of the 2003 sigfd() example program. With -- COMMAND it runs
 * COMMAND, passes every signal on to it and reaps it, as an init does: the
 * log then says who signalled COMMAND. See sigfd-watch(1). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "describe.h"
#include "sigfd.h"
#include "signame.h"

/* Exit statuses, documented in sigfd-watch(1). */
enum { EXIT_DONE = 0, EXIT_TIMEOUT = 1, EXIT_USAGE = 2, EXIT_SYSTEM = 3 };
/* With a COMMAND, its status is ours; ours are env(1)'s. */
enum { EXIT_WRAP_SYSTEM = 125, EXIT_CANNOT_RUN = 126, EXIT_NOT_FOUND = 127 };

static int system_status = EXIT_SYSTEM;

/* One line on stderr naming the problem, then out. */
static _Noreturn __attribute__((format(printf, 2, 3))) void die(int status, const char *fmt, ...)
{
	va_list ap;

	fputs("sigfd-watch: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

static __attribute__((format(printf, 1, 2))) void warn(const char *fmt, ...)
{
	va_list ap;

	fputs("sigfd-watch: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int set_size(const sigset_t *set)
{
	int n = 0;

	for (int sig = 1; sig < NSIG; sig++)
		n += sigismember(set, sig) == 1;
	return n;
}

/* Milliseconds from now to deadline, rounded up so poll() never returns
 * early; 0 once it has passed. */
static int ms_until(const struct timespec *deadline)
{
	struct timespec now;
	long long ns;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ns = (long long)(deadline->tv_sec - now.tv_sec) * 1000000000LL +
	     (deadline->tv_nsec - now.tv_nsec);
	if (ns <= 0)
		return 0;
	ns = (ns + 999999) / 1000000;
	return ns > INT_MAX ? INT_MAX : (int)ns;
}

/* Block take and return a sigfd for it. A blocked signal is queued whatever
 * its action, except that an inherited SIG_IGN for SIGCHLD makes the kernel
 * send none at all: every ignored one gets its default action back (a
 * COMMAND gets the inherited actions again, from sigfd_restore_signals). */
static int take_signals(const sigset_t *take)
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
		die(system_status, "sigprocmask: %s", strerror(errno));
	if ((fd = sigfd(take, SIGFD_CLOEXEC | SIGFD_NONBLOCK)) < 0)
		die(system_status, "sigfd: %s", strerror(errno));
	return fd;
}

/* The next record, waiting up to ms (-1: for ever): 1, or 0 on timeout. */
static int next_record(int fd, int ms, struct sigfd_siginfo *rec)
{
	for (;;) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int r = poll(&p, 1, ms);
		if (r < 0 && errno == EINTR)
			continue; /* e.g. after SIGSTOP/SIGCONT */
		if (r < 0)
			die(system_status, "poll: %s", strerror(errno));
		if (r == 0)
			return 0;
		/* One record at a time: we may stop after any of them, and what
		 * is not read stays pending rather than lost in our buffer. */
		ssize_t len = read(fd, rec, sizeof *rec);
		if (len < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (len < 0)
			die(system_status, "read: %s", strerror(errno));
		if (len != (ssize_t)sizeof *rec)
			die(system_status, "read: short record");
		return 1;
	}
}

/* One line out, flushed at once: stdout is often a pipe. 0, or -1 with
 * errno when it cannot be written. */
static int print_record(const struct watch_args *a, const struct sigfd_siginfo *rec)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	if (a->json)
		describe_json(stdout, rec, &now);
	else
		describe_text(stdout, rec, &now);
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	return -1;
}

static void say_watching(const sigset_t *set)
{
	int n = set_size(set);

	fprintf(stderr, "sigfd-watch: watching pid %ld for %d signal%s\n", (long)getpid(), n,
		n == 1 ? "" : "s");
}

static int watch(const struct watch_args *a)
{
	struct timespec deadline;
	unsigned long long seen = 0;
	struct sigfd_siginfo rec;
	int fd = take_signals(&a->set);

	say_watching(&a->set);
	if (a->timed) {
		clock_gettime(CLOCK_MONOTONIC, &deadline);
		deadline.tv_sec += a->timeout.tv_sec;
		deadline.tv_nsec += a->timeout.tv_nsec;
		if (deadline.tv_nsec >= 1000000000L) {
			deadline.tv_sec++;
			deadline.tv_nsec -= 1000000000L;
		}
	}
	for (;;) {
		/* Checked before each wait, so a steady stream of signals cannot
		 * keep it going past the deadline. */
		int ms = a->timed ? ms_until(&deadline) : -1;
		if (ms == 0 || !next_record(fd, ms, &rec))
			break;
		if (print_record(a, &rec) < 0) {
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

/* Pass a record's signal on. A queued value is queued again with the
 * sender's pid and uid, as COMMAND would have seen it; rt_sigqueueinfo()
 * takes any code below 0 but SI_TKILL for another process. Everything else
 * goes with kill(), from us. A process group cannot be queued to. */
static void forward(const struct sigfd_siginfo *r, pid_t child, int group)
{
	int sig = (int)r->ssi_signo, rc;
	char name[SIGNAME_MAX];

	if (!group && r->ssi_code < 0 && r->ssi_code != SI_TKILL) {
		siginfo_t si;
		memset(&si, 0, sizeof si);
		si.si_signo = sig;
		si.si_code = r->ssi_code;
		if (r->ssi_code == SI_TIMER) {
			si.si_timerid = (int)r->ssi_tid;
			si.si_overrun = (int)r->ssi_overrun;
		} else {
			si.si_pid = (pid_t)r->ssi_pid;
			si.si_uid = (uid_t)r->ssi_uid;
		}
		si.si_value.sival_ptr = (void *)(uintptr_t)r->ssi_ptr;
		rc = (int)syscall(SYS_rt_sigqueueinfo, child, sig, &si);
	} else
		rc = kill(group ? -child : child, sig);
	if (rc < 0)
		warn("passing %s on to %s %ld: %s", signame_of(sig, name),
		     group ? "process group" : "pid", (long)child, strerror(errno));
}

/* In the child: its own process group (in the terminal's foreground if we
 * were), the signals it would have had, then COMMAND. Our mask still blocks
 * what we watch; SIGTTOU is blocked too while taking the terminal. */
static _Noreturn void start_command(char **command, int foreground, int report)
{
	sigset_t ttou, old;
	int err;

	setpgid(0, 0);
	if (foreground) {
		sigemptyset(&ttou);
		sigaddset(&ttou, SIGTTOU);
		sigprocmask(SIG_BLOCK, &ttou, &old);
		tcsetpgrp(0, getpid());
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	if (sigfd_restore_signals() == 0)
		execvp(command[0], command);
	err = errno;
	if (write(report, &err, sizeof err) < 0)
		_exit(EXIT_WRAP_SYSTEM);
	_exit(err == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN);
}

/* Reap every child that has exited (orphans too, as a subreaper or pid 1):
 * one SIGCHLD may stand for several. 1 once COMMAND is among them. */
static int reap(pid_t child, int *status)
{
	int st, done = 0;
	pid_t pid;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
		if (pid == child) {
			*status = st;
			done = 1;
		}
	return done;
}

static int run_command(const struct watch_args *a)
{
	sigset_t take = a->set;
	struct sigfd_siginfo rec;
	int report[2], err, status = 0, output_ok = 1;
	pid_t me = getpid();

	system_status = EXIT_WRAP_SYSTEM;
	/* Orphans of COMMAND come to us to be reaped, not to init. */
	if (me != 1 && prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		warn("cannot become a subreaper (orphans go to init): %s", strerror(errno));
	sigaddset(&take, SIGCHLD); /* always taken: it says when to reap */
	int fd = take_signals(&take);
	int foreground = isatty(0) && tcgetpgrp(0) == getpgrp();
	if (pipe2(report, O_CLOEXEC) < 0)
		die(system_status, "pipe: %s", strerror(errno));
	say_watching(&a->set);
	pid_t child = fork();
	if (child < 0)
		die(system_status, "fork: %s", strerror(errno));
	if (child == 0) {
		close(report[0]);
		start_command(a->command, foreground, report[1]);
	}
	setpgid(child, child); /* both sides, so neither races the other */
	/* A lost log must not kill COMMAND's reaper: SIGPIPE, when not taken,
	 * is ignored here (COMMAND has been forked with its own action). */
	if (sigismember(&take, SIGPIPE) != 1)
		signal(SIGPIPE, SIG_IGN);
	close(report[1]);
	ssize_t n;
	while ((n = read(report[0], &err, sizeof err)) < 0 && errno == EINTR)
		;
	close(report[0]);
	if (n == (ssize_t)sizeof err)
		warn("cannot run '%s': %s", a->command[0], strerror(err));
	else
		fprintf(stderr, "sigfd-watch: running pid %ld: %s\n", (long)child, a->command[0]);

	for (;;) {
		next_record(fd, -1, &rec);
		int sig = (int)rec.ssi_signo;
		if (output_ok && sigismember(&a->set, sig) == 1 && print_record(a, &rec) < 0) {
			/* COMMAND keeps running: it must not lose its signals or
			 * its reaper because our log is gone. */
			warn("writing output: %s; still passing signals on", strerror(errno));
			output_ok = 0;
		}
		if (sig == SIGCHLD) {
			if (reap(child, &status))
				break;
		} else if (!(rec.ssi_pid == (uint32_t)me &&
			     (rec.ssi_code == SI_USER || rec.ssi_code == SI_TKILL)))
			/* Not our own doing (the SIGPIPE of a dead log). */
			forward(&rec, child, a->group);
	}
	if (foreground) { /* the terminal back to our group, as we found it */
		sigset_t ttou;
		sigemptyset(&ttou);
		sigaddset(&ttou, SIGTTOU);
		sigprocmask(SIG_BLOCK, &ttou, NULL);
		tcsetpgrp(0, getpgrp());
	}
	close(fd);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	struct watch_args a;
	char msg[512];

	if (watch_parse(argc, argv, &a, msg, sizeof msg) < 0)
		die(EXIT_USAGE, "%s", msg);
	if (a.action != ARGS_RUN) {
		if (a.action == ARGS_HELP)
			fputs(watch_usage, stdout);
		else
			printf("sigfd-watch (sigfd) %s\n", tools_version);
		return fflush(stdout) == 0 ? EXIT_DONE : EXIT_SYSTEM;
	}
	return a.command ? run_command(&a) : watch(&a);
}
