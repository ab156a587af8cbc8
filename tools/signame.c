/* SPDX-License-Identifier: MIT */
/* Signal names <-> numbers. The table holds the names this system defines,
 * canonical names first so that number -> name picks them over aliases. */
#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "signame.h"

static const struct {
	const char *name; /* without "SIG" */
	int num;
} names[] = {
	{"HUP", SIGHUP}, {"INT", SIGINT}, {"QUIT", SIGQUIT}, {"ILL", SIGILL},
	{"TRAP", SIGTRAP}, {"ABRT", SIGABRT},
#ifdef SIGEMT
	{"EMT", SIGEMT},
#endif
	{"BUS", SIGBUS}, {"FPE", SIGFPE}, {"KILL", SIGKILL}, {"USR1", SIGUSR1},
	{"SEGV", SIGSEGV}, {"USR2", SIGUSR2}, {"PIPE", SIGPIPE}, {"ALRM", SIGALRM},
	{"TERM", SIGTERM},
#ifdef SIGSTKFLT
	{"STKFLT", SIGSTKFLT},
#endif
	{"CHLD", SIGCHLD}, {"CONT", SIGCONT}, {"STOP", SIGSTOP}, {"TSTP", SIGTSTP},
	{"TTIN", SIGTTIN}, {"TTOU", SIGTTOU}, {"URG", SIGURG}, {"XCPU", SIGXCPU},
	{"XFSZ", SIGXFSZ}, {"VTALRM", SIGVTALRM}, {"PROF", SIGPROF},
#ifdef SIGWINCH
	{"WINCH", SIGWINCH},
#endif
#ifdef SIGIO
	{"IO", SIGIO},
#endif
#ifdef SIGPWR
	{"PWR", SIGPWR},
#endif
	{"SYS", SIGSYS},
#ifdef SIGINFO
	{"INFO", SIGINFO},
#endif
	/* Aliases: accepted on input, never printed (their numbers come earlier). */
#ifdef SIGPOLL
	{"POLL", SIGPOLL},
#endif
#ifdef SIGIOT
	{"IOT", SIGIOT},
#endif
#ifdef SIGCLD
	{"CLD", SIGCLD},
#endif
};

#define NNAMES (sizeof names / sizeof names[0])

/* A whole decimal number of at most 4 digits after any leading zeros (no
 * signal number is larger), or -1. */
static int small_number(const char *s)
{
	int n = 0;

	while (s[0] == '0' && s[1])
		s++;
	if (!*s || strlen(s) > 4)
		return -1;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			return -1;
		n = n * 10 + (*s - '0');
	}
	return n;
}

/* A signal the C library lets us put in a set: glibc and musl keep a few
 * numbers below SIGRTMIN for their threads and refuse them. */
static int usable(int sig)
{
	sigset_t s;

	sigemptyset(&s);
	return sig > 0 && sig < NSIG && sigaddset(&s, sig) == 0;
}

static int realtime(const char *s, const char **why)
{
	int base, sign, n;

	if (strncasecmp(s, "RTMIN", 5) == 0)
		base = SIGRTMIN, sign = 1;
	else if (strncasecmp(s, "RTMAX", 5) == 0)
		base = SIGRTMAX, sign = -1;
	else
		return 0;
	s += 5;
	n = 0;
	if (*s) {
		/* RTMIN counts up, RTMAX counts down: "RTMIN-1" would be no RT signal. */
		if (*s != (sign > 0 ? '+' : '-') || (n = small_number(s + 1)) < 0) {
			*why = "unknown signal";
			return -1;
		}
	}
	n = base + sign * n;
	if (n < SIGRTMIN || n > SIGRTMAX) {
		*why = "realtime signal out of range";
		return -1;
	}
	return n;
}

int signame_parse(const char *s, const char **why)
{
	const char *bare = s;
	int n;

	*why = "unknown signal";
	if (isdigit((unsigned char)*s)) {
		n = small_number(s);
		if (n < 1 || n >= NSIG) {
			*why = "no such signal number";
			return 0;
		}
		if (!usable(n)) {
			*why = "reserved signal number";
			return 0;
		}
		return n;
	}
	if (strncasecmp(bare, "SIG", 3) == 0)
		bare += 3;
	n = realtime(bare, why);
	if (n > 0)
		return n;
	if (n < 0)
		return 0;
	for (size_t i = 0; i < NNAMES; i++)
		if (strcasecmp(bare, names[i].name) == 0)
			return names[i].num;
	return 0;
}

const char *signame_of(int sig, char buf[SIGNAME_MAX])
{
	for (size_t i = 0; i < NNAMES; i++)
		if (names[i].num == sig) {
			snprintf(buf, SIGNAME_MAX, "SIG%s", names[i].name);
			return buf;
		}
	if (sig >= SIGRTMIN && sig <= SIGRTMAX) {
		/* bash's spelling: the lower half from RTMIN, the upper from RTMAX. */
		int up = sig - SIGRTMIN, down = SIGRTMAX - sig;
		if (up == 0)
			snprintf(buf, SIGNAME_MAX, "SIGRTMIN");
		else if (down == 0)
			snprintf(buf, SIGNAME_MAX, "SIGRTMAX");
		else if (up <= (SIGRTMAX - SIGRTMIN) / 2)
			snprintf(buf, SIGNAME_MAX, "SIGRTMIN+%d", up);
		else
			snprintf(buf, SIGNAME_MAX, "SIGRTMAX-%d", down);
		return buf;
	}
	snprintf(buf, SIGNAME_MAX, "SIG%d", sig);
	return buf;
}
