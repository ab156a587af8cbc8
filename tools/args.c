/* SPDX-License-Identifier: MIT */
/* Command lines of sigfd-watch and sigfd-send (see args.h), with
 * getopt_long: bundled short options (-jc5), values joined or apart (-c5,
 * -c 5, --count=5, --count 5), "--". Values are checked strictly by hand:
 * strtod and friends would also take "inf", hex, spaces and the locale's
 * decimal point. */
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "signame.h"

#ifndef SIGFD_TOOLS_VERSION
#error "the build passes the version as SIGFD_TOOLS_VERSION"
#endif
const char tools_version[] = SIGFD_TOOLS_VERSION;

const char watch_usage[] =
	"usage: sigfd-watch [OPTION...] [SIGNAL...]\n"
	"       sigfd-watch [OPTION...] [SIGNAL...] -- COMMAND [ARG...]\n"
	"Block the SIGNALs (default: every signal that can be caught), take them\n"
	"through a sigfd and print one line per signal received, saying who sent it.\n"
	"With COMMAND: run it with the signal mask and actions it would have had,\n"
	"pass every signal received but SIGCHLD on to it, reap it (and orphans), and\n"
	"exit with its status (128+N if signal N killed it).\n"
	"\n"
	"  -j, --json             one JSON object per line instead of text\n"
	"  -c, --count N          stop after N signals\n"
	"  -t, --timeout SECONDS  stop after SECONDS (fractions allowed), exit 1\n"
	"  -x, --exclude SIGNAL[,SIGNAL...]\n"
	"                         do not watch these (repeatable); they act as usual\n"
	"                         (with COMMAND: not logged, still passed on)\n"
	"  -o, --output FILE      the log goes to FILE (appended; '-': standard output);\n"
	"                         default: standard output, or standard error with COMMAND\n"
	"  -h, --help             this text\n"
	"  -V, --version          the version\n"
	"With COMMAND:\n"
	"  -g, --group            send signals to COMMAND's process group, not to it alone;\n"
	"                         when COMMAND exits, SIGTERM the rest of its group\n"
	"                         and the processes it adopted (as pid 1, every\n"
	"                         process of the namespace gets it, -g or not)\n"
	"  -k, --kill-after SECONDS\n"
	"                         SIGKILL COMMAND (its group with -g) if it still runs\n"
	"                         SECONDS after a TERM, INT, HUP or QUIT was passed on;\n"
	"                         once COMMAND exits, wait that long for the rest\n"
	"  -r, --rewrite FROM:TO  pass signal FROM on as TO (0: drop it; repeatable)\n"
	"  -e, --success-status CODE\n"
	"                         exit 0 when COMMAND's status is CODE (repeatable)\n"
	"  -q, --quiet            log nothing but errors\n"
	"  -T, --trace            also log every signal the kernel generates for\n"
	"                         COMMAND and its descendants, SIGKILL included\n"
	"                         (tracefs: root)\n"
	"\n"
	"SIGNAL: a name with or without SIG, in any case (USR1, SIGHUP, rtmin+3,\n"
	"RTMAX-1) or a number. SIGKILL and SIGSTOP cannot be watched.\n"
	"Without COMMAND a reported SIGINT or SIGTERM stops it; --count and\n"
	"--timeout do not go with COMMAND.\n"
	"Exit status: 0 count reached or SIGINT/SIGTERM reported, 1 timeout,\n"
	"2 bad arguments, 3 system error; with COMMAND, its status, 2 bad\n"
	"arguments, 125 system error, 126 COMMAND cannot run, 127 not found.\n"
	"With COMMAND, every signal is taken and passed on: SIGNALs and --exclude\n"
	"choose only what is logged. Ctrl-Z, fg and bg work as for COMMAND itself.\n";

const char send_usage[] =
	"usage: sigfd-send [-q VALUE] SIGNAL PID...\n"
	"       sigfd-send -SIGNAL [-q VALUE] PID...\n"
	"       sigfd-send (-s SIGNAL | -n NUMBER) [-q VALUE] PID...\n"
	"Send SIGNAL to each PID with kill(2), or with -q with sigqueue(3) carrying\n"
	"the integer VALUE. SIGNAL is a name as in sigfd-watch (KILL, sigterm,\n"
	"RTMIN+3) or a number; signal 0 sends nothing and only checks that the\n"
	"process exists and may be signalled. A negative PID, after --, is a\n"
	"process group.\n"
	"\n"
	"  -s, --signal SIGNAL    the signal, by name or number\n"
	"  -n, --number NUMBER    the signal, by number\n"
	"  -q, --queue VALUE      sigqueue(3) with this integer\n"
	"  -h, --help             this text\n"
	"  -V, --version          the version\n"
	"\n"
	"Exit status: 0 sent to every PID, 1 not sent to some, 2 bad arguments.\n";

static __attribute__((format(printf, 3, 4))) int fail(char *msg, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, size, fmt, ap);
	va_end(ap);
	return -1;
}

/* A whole number of at least 1, or 0. */
static unsigned long long parse_count(const char *s)
{
	unsigned long long n = 0;

	if (!*s)
		return 0;
	for (; *s; s++) {
		unsigned digit = (unsigned)(*s - '0');

		if (*s < '0' || *s > '9' || n > (ULLONG_MAX - digit) / 10)
			return 0;
		n = n * 10 + digit;
	}
	return n;
}

/* Decimal seconds: "2", "0.25", ".5". */
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

/* A decimal integer in [lo, hi] into *out: 0, or -1. */
static int parse_long(const char *s, long lo, long hi, long *out)
{
	int neg = *s == '-';
	long long n = 0;

	if (neg || *s == '+')
		s++;
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		n = n * 10 + (*s - '0');
		if (n > (long long)INT_MAX + 1)
			return -1;
	}
	if (neg)
		n = -n;
	if (n < lo || n > hi)
		return -1;
	*out = (long)n;
	return 0;
}

/* A signal to watch: catchable. 0, or -1 with msg. */
static int watchable(const char *s, int *sig, char *msg, size_t size)
{
	const char *why;

	if (!(*sig = signame_parse(s, &why)))
		return fail(msg, size, "%s '%s'", why, s);
	if (*sig == SIGKILL || *sig == SIGSTOP)
		return fail(msg, size, "%s cannot be watched: it can be neither blocked nor caught",
			    *sig == SIGKILL ? "SIGKILL" : "SIGSTOP");
	return 0;
}

/* "WINCH,TSTP,QUIT": each is taken out of *out. */
static int exclude_list(const char *list, sigset_t *out, char *msg, size_t size)
{
	for (const char *p = list;; p++) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char one[SIGNAME_MAX + 8];
		const char *why;
		int sig;

		if (len >= sizeof one)
			return fail(msg, size, "unknown signal '%.*s'", (int)len, p);
		memcpy(one, p, len);
		one[len] = '\0';
		if (!(sig = signame_parse(one, &why)))
			return fail(msg, size, "%s '%s'%s", why, one,
				    len == 0 ? " in --exclude list" : "");
		sigdelset(out, sig);
		if (!end)
			return 0;
		p = end;
	}
}

/* The message for getopt's '?' or ':', from what it leaves behind. */
static int option_error(int c, int argc, char **argv, const struct option *opts, char *msg,
			size_t size)
{
	const char *arg = optind > 0 && optind <= argc ? argv[optind - 1] : "";
	int is_long = strncmp(arg, "--", 2) == 0;
	int len = is_long ? (int)strcspn(arg, "=") : 0;

	if (c == ':')
		return is_long ? fail(msg, size, "option '%.*s' needs an argument", len, arg)
			       : fail(msg, size, "option '-%c' needs an argument", optopt);
	if (optopt && is_long)
		for (const struct option *o = opts; o->name; o++)
			if (o->val == optopt && o->has_arg == no_argument)
				return fail(msg, size, "option '%.*s' takes no value", len, arg);
	if (is_long || !optopt)
		return fail(msg, size, "unknown option '%s'", arg);
	return fail(msg, size, "unknown option '-%c'", optopt);
}

static const struct option watch_options[] = {
	{"json", no_argument, NULL, 'j'},
	{"count", required_argument, NULL, 'c'},
	{"timeout", required_argument, NULL, 't'},
	{"exclude", required_argument, NULL, 'x'},
	{"group", no_argument, NULL, 'g'},
	{"output", required_argument, NULL, 'o'},
	{"quiet", no_argument, NULL, 'q'},
	{"trace", no_argument, NULL, 'T'},
	{"kill-after", required_argument, NULL, 'k'},
	{"rewrite", required_argument, NULL, 'r'},
	{"success-status", required_argument, NULL, 'e'},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{NULL, 0, NULL, 0},
};

/* getopt's: '-' keeps non-options in order, ':' reports a missing value. */
static const char watch_short[] = "-:jc:t:x:go:qTk:r:e:hV";

int watch_word_wants_value(const char *word)
{
	if (word[0] != '-' || !word[1])
		return 0;
	if (word[1] == '-') { /* --name, or a prefix getopt_long takes for it */
		size_t len = strcspn(word + 2, "=");
		int found = 0, wants = 0;

		if (!len || word[2 + len] == '=')
			return 0;
		for (const struct option *o = watch_options; o->name; o++)
			if (!strncmp(o->name, word + 2, len)) {
				if (strlen(o->name) == len)
					return o->has_arg == required_argument;
				found++;
				wants = o->has_arg == required_argument;
			}
		return found == 1 && wants;
	}
	for (const char *p = word + 1; *p; p++) { /* -jo: the last takes the next word */
		const char *in = strchr(&watch_short[2], *p);

		if (!in || *p == ':')
			return 0;
		if (in[1] == ':')
			return !p[1];
	}
	return 0;
}

/* "TERM:QUIT", "15:3", "USR1:0": rewrite[FROM] = TO. FROM must be a signal
 * that can be taken and is not SIGCHLD (which says when to reap); TO any
 * signal, or 0 to drop. */
static int rewrite_pair(const char *s, int *rewrite, char *msg, size_t size)
{
	const char *colon = strchr(s, ':'), *why;
	char from[SIGNAME_MAX + 8];
	int f, t;

	if (!colon || (size_t)(colon - s) >= sizeof from)
		return fail(msg, size, "bad rewrite '%s' (want FROM:TO, e.g. TERM:QUIT)", s);
	memcpy(from, s, (size_t)(colon - s));
	from[colon - s] = '\0';
	if (watchable(from, &f, msg, size) < 0)
		return -1;
	if (f == SIGCHLD)
		return fail(msg, size, "SIGCHLD cannot be rewritten: it says when to reap");
	if (strcmp(colon + 1, "0") == 0)
		t = 0;
	else if (!(t = signame_parse(colon + 1, &why)))
		return fail(msg, size, "%s '%s' in rewrite '%s'", why, colon + 1, s);
	rewrite[f] = t;
	return 0;
}

int watch_parse(int argc, char **argv, struct watch_args *a, char *msg, size_t size)
{
	sigset_t excluded;
	int c, sig, named = 0, excluding = 0, any = 0;
	long v;

	memset(a, 0, sizeof *a);
	sigemptyset(&a->set);
	sigfillset(&excluded);
	for (sig = 0; sig < NSIG; sig++)
		a->rewrite[sig] = sig;
	msg[0] = '\0';
	optind = 0; /* a fresh start, in glibc and musl */
	opterr = 0;
	/* '-': non-options come back in order as 1, so "--" is seen where it is. */
	while ((c = getopt_long(argc, argv, watch_short, watch_options, NULL)) != -1) {
		switch (c) {
		case 1:
			if (watchable(optarg, &sig, msg, size) < 0)
				return -1;
			sigaddset(&a->set, sig);
			named = 1;
			break;
		case 'j':
			a->json = 1;
			break;
		case 'c':
			if (!(a->count = parse_count(optarg)))
				return fail(msg, size, "bad count '%s' (want a whole number from 1)",
					    optarg);
			break;
		case 't':
			if (parse_seconds(optarg, &a->timeout) < 0)
				return fail(msg, size,
					    "bad timeout '%s' (want seconds, e.g. 2 or 0.5)", optarg);
			a->timed = 1;
			break;
		case 'x':
			if (exclude_list(optarg, &excluded, msg, size) < 0)
				return -1;
			excluding = 1;
			break;
		case 'g':
			a->group = 1;
			break;
		case 'o':
			if (!*optarg)
				return fail(msg, size, "empty --output file name");
			a->output = optarg;
			break;
		case 'q':
			a->quiet = 1;
			break;
		case 'T':
			a->trace = 1;
			break;
		case 'k':
			if (parse_seconds(optarg, &a->kill_after) < 0 ||
			    (!a->kill_after.tv_sec && !a->kill_after.tv_nsec))
				return fail(msg, size,
					    "bad --kill-after '%s' (want seconds above 0, e.g. 10 or 0.5)",
					    optarg);
			a->kill_after_set = 1;
			break;
		case 'r':
			if (rewrite_pair(optarg, a->rewrite, msg, size) < 0)
				return -1;
			a->rewriting = 1;
			break;
		case 'e':
			if (parse_long(optarg, 0, 255, &v) < 0)
				return fail(msg, size, "bad exit status '%s' (want 0 to 255)", optarg);
			a->success[v] = 1;
			a->success_set = 1;
			break;
		case 'h':
			a->action = ARGS_HELP;
			return 0;
		case 'V':
			a->action = ARGS_VERSION;
			return 0;
		default:
			return option_error(c, argc, argv, watch_options, msg, size);
		}
	}
	if (optind > 1 && optind <= argc && strcmp(argv[optind - 1], "--") == 0) {
		if (optind == argc)
			return fail(msg, size, "'--' must be followed by a COMMAND");
		a->command = argv + optind;
	} else
		/* musl ends options at a lone "-": the rest are signals too. */
		for (; optind < argc; optind++) {
			if (watchable(argv[optind], &sig, msg, size) < 0)
				return -1;
			sigaddset(&a->set, sig);
			named = 1;
		}
	if (!named) {
		sigfillset(&a->set);
		sigdelset(&a->set, SIGKILL);
		sigdelset(&a->set, SIGSTOP);
	}
	for (sig = 1; sig < NSIG; sig++)
		if (sigismember(&a->set, sig) == 1 && sigismember(&excluded, sig) != 1)
			sigdelset(&a->set, sig);
	for (sig = 1; sig < NSIG && !any; sig++)
		any = sigismember(&a->set, sig) == 1;
	if (!any && excluding)
		return fail(msg, size, "--exclude leaves no signal to watch");
	if (a->command && a->count)
		return fail(msg, size, "--count does not go with a COMMAND");
	if (a->command && a->timed)
		return fail(msg, size, "--timeout does not go with a COMMAND");
	if (!a->command && a->group)
		return fail(msg, size, "--group needs a COMMAND (after '--')");
	if (!a->command && a->kill_after_set)
		return fail(msg, size, "--kill-after needs a COMMAND (after '--')");
	if (!a->command && a->rewriting)
		return fail(msg, size, "--rewrite needs a COMMAND (after '--')");
	if (!a->command && a->success_set)
		return fail(msg, size, "--success-status needs a COMMAND (after '--')");
	if (!a->command && a->trace)
		return fail(msg, size, "--trace needs a COMMAND (after '--')");
	if (!a->command && a->quiet)
		return fail(msg, size, "--quiet needs a COMMAND (after '--')");
	if (a->quiet && a->output)
		return fail(msg, size, "--quiet and --output do not go together");
	return 0;
}

/* PIDs: a process (1 and up) or a process group (-2 and down). 0 and -1
 * (the caller's group, every process) are refused: too easy to type. */
static int pid_ok(const char *s, long *pid)
{
	return parse_long(s, -(long)INT_MAX, INT_MAX, pid) == 0 && *pid != 0 && *pid != -1;
}

/* One more PID for a: 0, or -1 with msg. */
static int add_pid(struct send_args *a, const char *s, char *msg, size_t size)
{
	long pid;

	if (!pid_ok(s, &pid))
		return fail(msg, size, "bad pid '%s'%s", s,
			    strcmp(s, "0") && strcmp(s, "-1")
				    ? ""
				    : " (0 and -1 are refused: they mean many processes)");
	if (a->npids == SEND_MAX_PIDS)
		return fail(msg, size, "too many PIDs (at most %d)", SEND_MAX_PIDS);
	a->pids[a->npids++] = (pid_t)pid;
	return 0;
}

/* Signal 0, spelled "0", "00", ...: signame_parse() has no signal 0. */
static int is_zero(const char *s)
{
	return *s && !s[strspn(s, "0")];
}

/* A signal to send: any signal, or 0. */
static int sendable(const char *s, int *sig, char *msg, size_t size)
{
	const char *why;

	if (is_zero(s)) {
		*sig = 0;
		return 0;
	}
	if (!(*sig = signame_parse(s, &why)))
		return fail(msg, size, "%s '%s'", why, s);
	return 0;
}

static const struct option send_options[] = {
	{"signal", required_argument, NULL, 's'},
	{"number", required_argument, NULL, 'n'},
	{"queue", required_argument, NULL, 'q'},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{NULL, 0, NULL, 0},
};

int send_parse(int argc, char **argv, struct send_args *a, char *msg, size_t size)
{
	int c, have_sig = 0, first = 1;
	long v;

	memset(a, 0, sizeof *a); /* the sigval's pointer half too */
	msg[0] = '\0';
	/* kill(1)'s "-9", "-KILL", "-0": only first, where kill takes it. The
	 * rest is parsed as a command line of its own, this word its argv[0]. */
	if (argc > 1 && argv[1][0] == '-' && argv[1][1] && argv[1][1] != '-') {
		const char *why;
		int zero = is_zero(argv[1] + 1), sig = zero ? 0 : signame_parse(argv[1] + 1, &why);
		if (sig || zero) {
			a->sig = sig;
			have_sig = 1;
			argc--;
			argv++;
		}
	}
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "-:s:n:q:hV", send_options, NULL)) != -1) {
		switch (c) {
		case 1:
			if (first && !have_sig) {
				if (sendable(optarg, &a->sig, msg, size) < 0)
					return -1;
				have_sig = 1;
			} else if (add_pid(a, optarg, msg, size) < 0)
				return -1;
			first = 0;
			break;
		case 's':
		case 'n':
			if (have_sig)
				return fail(msg, size, "the signal is given twice");
			/* A number has no sign. */
			if (c == 'n' && (*optarg == '-' || *optarg == '+' ||
					 parse_long(optarg, 0, NSIG - 1, &v) < 0))
				return fail(msg, size, "bad signal number '%s'", optarg);
			if (sendable(optarg, &a->sig, msg, size) < 0)
				return -1;
			have_sig = 1;
			first = 0;
			break;
		case 'q':
			if (parse_long(optarg, INT_MIN, INT_MAX, &v) < 0)
				return fail(msg, size, "bad value '%s' (want an integer)", optarg);
			a->value.sival_int = (int)v;
			a->queue = 1;
			break;
		case 'h':
			a->action = ARGS_HELP;
			return 0;
		case 'V':
			a->action = ARGS_VERSION;
			return 0;
		default:
			if (c == '?' && optopt >= '0' && optopt <= '9')
				return fail(msg, size, "unknown option '-%c' (a process group, "
						       "-PGID, goes after '--')", optopt);
			return option_error(c, argc, argv, send_options, msg, size);
		}
	}
	/* After "--" (or musl's lone "-"): PIDs, negative ones included. */
	for (; optind < argc; optind++) {
		if (first && !have_sig) {
			if (sendable(argv[optind], &a->sig, msg, size) < 0)
				return -1;
			have_sig = 1;
		} else if (add_pid(a, argv[optind], msg, size) < 0)
			return -1;
		first = 0;
	}
	if (!have_sig)
		return fail(msg, size, "no SIGNAL given (see --help)");
	if (!a->npids)
		return fail(msg, size, "no PID given (see --help)");
	for (int i = 0; a->queue && i < a->npids; i++)
		if (a->pids[i] < 0)
			return fail(msg, size, "-q cannot go to a process group (%ld): "
					       "sigqueue() takes one process", (long)a->pids[i]);
	return 0;
}
