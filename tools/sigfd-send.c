/* SPDX-License-Identifier: MIT */
/* sigfd-send: send one signal with kill(2), or with sigqueue(3) and a value.
 * A test and demo helper for sigfd-watch: no standard command on a fresh
 * system is sure to queue a value (procps kill -q is not always there). */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "signame.h"

static const char usage[] =
	"usage: sigfd-send [-q VALUE] SIGNAL PID\n"
	"Send SIGNAL (a name as in sigfd-watch, or a number) to PID with kill(2),\n"
	"or with -q, with sigqueue(3) carrying the integer VALUE.\n"
	"Exit status: 0 sent, 1 not sent, 2 bad arguments.\n";

static _Noreturn void bad(const char *what, const char *arg)
{
	fprintf(stderr, "sigfd-send: %s '%s'\n", what, arg);
	exit(2);
}

/* A decimal long within [lo, hi], or bad(). */
static long number(const char *s, long lo, long hi, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < lo || v > hi)
		bad(what, s);
	return v;
}

int main(int argc, char **argv)
{
	int i = 1, queue = 0, sig;
	union sigval value;
	const char *why;
	pid_t pid;

	memset(&value, 0, sizeof value); /* the pointer's upper half too */
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage, stdout);
		return 0;
	}
	if (i < argc && !strcmp(argv[i], "-q")) {
		if (i + 1 >= argc)
			bad("option needs a value", argv[i]);
		value.sival_int = (int)number(argv[i + 1], INT_MIN, INT_MAX, "bad value");
		queue = 1;
		i += 2;
	}
	if (i < argc && argv[i][0] == '-' && argv[i][1] && !(argv[i][1] >= '0' && argv[i][1] <= '9'))
		bad("unknown option", argv[i]);
	if (argc - i != 2) {
		fputs("sigfd-send: want SIGNAL and PID (see --help)\n", stderr);
		return 2;
	}
	if (!(sig = signame_parse(argv[i], &why)))
		bad(why, argv[i]);
	pid = (pid_t)number(argv[i + 1], 1, INT_MAX, "bad pid");
	if ((queue ? sigqueue(pid, sig, value) : kill(pid, sig)) < 0) {
		fprintf(stderr, "sigfd-send: %s: %s\n", queue ? "sigqueue" : "kill", strerror(errno));
		return 1;
	}
	return 0;
}
