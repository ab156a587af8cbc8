/* SPDX-License-Identifier: MIT */
/* sigfd-watch: print the signals this process receives, one line each.
 * The modern form of the 2003 sigfd() example program; see sigfd-watch(1).
 * It blocks the signals it watches, so it runs no child: one would inherit
 * the blocked mask. */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "describe.h"
#include "sigfd.h"
#include "signame.h"

/* Exit statuses, documented in sigfd-watch(1). */
enum { EXIT_DONE = 0, EXIT_TIMEOUT = 1, EXIT_USAGE = 2, EXIT_SYSTEM = 3 };

static const char usage[] =
	"usage: sigfd-watch [--json] [--count N] [--timeout SECONDS] [SIGNAL...]\n"
	"Block the SIGNALs (default: every signal that can be caught), take them\n"
	"through a sigfd and print one line per signal received.\n"
	"\n"
	"  -j, --json             one JSON object per line instead of text\n"
	"  -c, --count N          stop after N signals\n"
	"  -t, --timeout SECONDS  stop after SECONDS (fractions allowed), exit 1\n"
	"  -h, --help             this text\n"
	"\n"
	"SIGNAL: a name with or without SIG, in any case (USR1, SIGHUP, rtmin+3,\n"
	"RTMAX-1) or a number. SIGKILL and SIGSTOP cannot be watched.\n"
	"A reported SIGINT or SIGTERM stops it.\n"
	"Exit status: 0 count reached or SIGINT/SIGTERM reported, 1 timeout,\n"
	"2 bad arguments, 3 system error.\n";

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

/* A whole number of at least 1, or 0. */
static unsigned long long parse_count(const char *s)
{
	unsigned long long n = 0;

	if (!*s)
		return 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || n > (ULLONG_MAX - 9) / 10)
			return 0;
		n = n * 10 + (unsigned)(*s - '0');
	}
	return n;
}

/* Decimal seconds, "2", "0.25", ".5": strict by hand, since strtod would
 * also take "inf", "nan", hex and the locale's decimal point. */
static int parse_seconds(const char *s, struct timespec *out)
{
	long long sec = 0;
	long nsec = 0, scale = 100000000;
	int digits = 0;

	for (; *s >= '0' && *s <= '9'; s++, digits++) {
		sec = sec * 10 + (*s - '0');
		if (sec > 100000000) /* three years is enough; no overflow below */
			return -1;
	}
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++, digits++) {
			nsec += (*s - '0') * scale;
			scale /= 10;
		}
	if (*s || !digits)
		return -1;
	out->tv_sec = (time_t)sec;
	out->tv_nsec = nsec;
	return 0;
}

struct options {
	int json;
	unsigned long long count; /* 0: no limit */
	int timed;
	struct timespec timeout;
	sigset_t set;
	int named; /* signals were named on the command line */
};

/* "--count=5", "--count 5" and "-c 5" all give "5"; a missing value is an error. */
static const char *option_value(const char *arg, size_t len, int *i, int argc, char **argv)
{
	if (arg[len] == '=')
		return arg + len + 1;
	if (*i + 1 >= argc)
		die(EXIT_USAGE, "option '%s' needs an argument", argv[*i]);
	return argv[++*i];
}

/* Does arg spell the option, long (with or without =VALUE) or short? */
static size_t is_option(const char *arg, const char *lng, const char *shrt)
{
	size_t n = strlen(lng);

	if (strcmp(arg, shrt) == 0)
		return strlen(shrt);
	if (strncmp(arg, lng, n) == 0 && (arg[n] == '\0' || arg[n] == '='))
		return n;
	return 0;
}

static void parse_args(int argc, char **argv, struct options *o)
{
	int options_done = 0;
	size_t n;

	memset(o, 0, sizeof *o);
	sigemptyset(&o->set);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v, *why;

		if (!options_done && a[0] == '-' && a[1]) {
			if (strcmp(a, "--") == 0)
				options_done = 1;
			else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
				fputs(usage, stdout);
				exit(fflush(stdout) == 0 ? EXIT_DONE : EXIT_SYSTEM);
			} else if (strcmp(a, "--json") == 0 || strcmp(a, "-j") == 0)
				o->json = 1;
			else if ((n = is_option(a, "--count", "-c"))) {
				v = option_value(a, n, &i, argc, argv);
				if (!(o->count = parse_count(v)))
					die(EXIT_USAGE, "bad count '%s' (want a whole number from 1)", v);
			} else if ((n = is_option(a, "--timeout", "-t"))) {
				v = option_value(a, n, &i, argc, argv);
				if (parse_seconds(v, &o->timeout) < 0)
					die(EXIT_USAGE, "bad timeout '%s' (want seconds, e.g. 2 or 0.5)", v);
				o->timed = 1;
			} else
				die(EXIT_USAGE, "unknown option '%s'", a);
			continue;
		}
		int sig = signame_parse(a, &why);
		if (!sig)
			die(EXIT_USAGE, "%s '%s'", why, a);
		if (sig == SIGKILL || sig == SIGSTOP)
			die(EXIT_USAGE, "%s cannot be watched: it can be neither blocked nor caught",
			    sig == SIGKILL ? "SIGKILL" : "SIGSTOP");
		sigaddset(&o->set, sig);
		o->named = 1;
	}
	if (!o->named) {
		sigfillset(&o->set);
		sigdelset(&o->set, SIGKILL);
		sigdelset(&o->set, SIGSTOP);
	}
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

/* stdout is often a pipe: each line goes out at once. A reader that went
 * away (EPIPE) ends us quietly; SIGPIPE itself may be one we block. */
static void flush_line(void)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return;
	if (errno == EPIPE)
		exit(EXIT_SYSTEM);
	die(EXIT_SYSTEM, "writing output: %s", strerror(errno));
}

int main(int argc, char **argv)
{
	struct options o;
	struct timespec deadline;
	unsigned long long seen = 0;
	int fd, status;

	parse_args(argc, argv, &o);

	/* A blocked signal is queued whatever its disposition, except that an
	 * inherited SIG_IGN for SIGCHLD makes the kernel send none at all: give
	 * every watched, ignored signal back its default action. */
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction sa;
		if (sigismember(&o.set, sig) == 1 && sigaction(sig, NULL, &sa) == 0 &&
		    sa.sa_handler == SIG_IGN) {
			sa.sa_handler = SIG_DFL;
			sigaction(sig, &sa, NULL);
		}
	}
	if (sigprocmask(SIG_BLOCK, &o.set, NULL) < 0)
		die(EXIT_SYSTEM, "sigprocmask: %s", strerror(errno));
	fd = sigfd(&o.set, SIGFD_CLOEXEC | SIGFD_NONBLOCK);
	if (fd < 0)
		die(EXIT_SYSTEM, "sigfd: %s", strerror(errno));

	int n = set_size(&o.set);
	fprintf(stderr, "sigfd-watch: watching pid %ld for %d signal%s\n", (long)getpid(), n,
		n == 1 ? "" : "s");

	if (o.timed) {
		clock_gettime(CLOCK_MONOTONIC, &deadline);
		deadline.tv_sec += o.timeout.tv_sec;
		deadline.tv_nsec += o.timeout.tv_nsec;
		if (deadline.tv_nsec >= 1000000000L) {
			deadline.tv_sec++;
			deadline.tv_nsec -= 1000000000L;
		}
	}

	for (;;) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		struct sigfd_siginfo rec;
		struct timespec now;
		int ms = o.timed ? ms_until(&deadline) : -1;

		/* Checked before each wait, so a steady stream of signals cannot
		 * keep it going past the deadline. */
		if (ms == 0) {
			status = EXIT_TIMEOUT;
			break;
		}
		int r = poll(&p, 1, ms);
		if (r < 0 && errno == EINTR)
			continue; /* e.g. after SIGSTOP/SIGCONT */
		if (r < 0)
			die(EXIT_SYSTEM, "poll: %s", strerror(errno));
		if (r == 0)
			continue; /* the deadline, checked above */
		/* One record at a time: we may stop after any of them, and what is
		 * not read stays pending rather than lost in our buffer. */
		ssize_t len = read(fd, &rec, sizeof rec);
		if (len < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (len < 0)
			die(EXIT_SYSTEM, "read: %s", strerror(errno));
		if (len != (ssize_t)sizeof rec)
			die(EXIT_SYSTEM, "read: short record");
		clock_gettime(CLOCK_REALTIME, &now);
		if (o.json)
			describe_json(stdout, &rec, &now);
		else
			describe_text(stdout, &rec, &now);
		flush_line();
		if ((o.count && ++seen >= o.count) || rec.ssi_signo == SIGINT ||
		    rec.ssi_signo == SIGTERM) {
			status = EXIT_DONE;
			break;
		}
	}
	close(fd);
	return status;
}
