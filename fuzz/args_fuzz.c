/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the tools' command lines (tools/args.c): the input
 * is split at NUL bytes into argv[1..], and both parsers must return 0 or
 * -1 with a one-line message, never crash, read out of bounds or hit
 * undefined behaviour (the build adds ASan and UBSan). What they return is
 * checked against what args.h promises. */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../tools/args.h"

#define MAX_ARGS 64
#define MAX_INPUT 4096

static void must(int cond)
{
	if (!cond)
		abort(); /* libFuzzer reports it, with the input that did it */
}

/* The message is one line unless it quotes an argument with a newline. */
static int input_has_newline;

static void check_msg(int rc, const char *msg, size_t size)
{
	size_t len = strnlen(msg, size);

	must(len < size);
	must(input_has_newline || strchr(msg, '\n') == NULL);
	must(rc == 0 || len > 0); /* a refusal always says why */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char buf[MAX_INPUT + 1];
	char *argv[MAX_ARGS + 2], msg[128];
	struct watch_args w;
	struct send_args s;
	int argc = 1, rc;

	if (size > MAX_INPUT)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	input_has_newline = memchr(data, '\n', size) != NULL;
	argv[0] = "prog";
	for (size_t i = 0; i <= size && argc <= MAX_ARGS; argc++) {
		argv[argc] = buf + i;
		i += strlen(buf + i) + 1;
	}
	argv[argc] = NULL;

	/* A short buffer too: a message is cut, never overrun. */
	rc = watch_parse(argc, argv, &w, msg, size % 2 ? sizeof msg : 16);
	must(rc == 0 || rc == -1);
	check_msg(rc, msg, size % 2 ? sizeof msg : 16);
	if (rc == 0 && w.action == ARGS_RUN) {
		must(sigismember(&w.set, SIGKILL) != 1 && sigismember(&w.set, SIGSTOP) != 1);
		must(!(w.command && (w.count || w.timed)));
		must(!w.group || w.command);
		must(!(w.kill_after_set || w.rewriting || w.success_set || w.quiet) || w.command);
		must(!(w.quiet && w.output));
		must(!w.kill_after_set || w.kill_after.tv_sec || w.kill_after.tv_nsec);
		for (int sig = 1; sig < NSIG; sig++)
			must(w.rewrite[sig] >= 0 && w.rewrite[sig] < NSIG &&
			     (w.rewrite[sig] == sig || (sig != SIGCHLD && sig != SIGKILL &&
							sig != SIGSTOP)));
		must(!w.timed || (w.timeout.tv_nsec >= 0 && w.timeout.tv_nsec < 1000000000));
	}

	/* SIGFD_WATCH_OPTIONS's check of its last word: an option that takes
	 * the next word as its value is one that, alone, lacks it. */
	if (argc > 1) {
		static const char lacks[] = "' needs an argument";
		char *alone[] = { "prog", argv[argc - 1], NULL };
		size_t len;

		/* -h and -V end the parse where they stand: nothing to compare. */
		rc = watch_parse(2, alone, &w, msg, sizeof msg);
		len = strlen(msg);
		must((rc == 0 && w.action != ARGS_RUN) ||
		     watch_word_wants_value(argv[argc - 1]) ==
		     (rc < 0 && !strncmp(msg, "option '", 8) && len >= sizeof lacks - 1 &&
		      !strcmp(msg + len - (sizeof lacks - 1), lacks)));
	}

	rc = send_parse(argc, argv, &s, msg, sizeof msg);
	must(rc == 0 || rc == -1);
	check_msg(rc, msg, sizeof msg);
	if (rc == 0 && s.action == ARGS_RUN) {
		must(s.sig >= 0 && s.sig < NSIG);
		must(s.npids >= 1 && s.npids <= SEND_MAX_PIDS);
		for (int i = 0; i < s.npids; i++)
			must(s.pids[i] != 0 && s.pids[i] != -1 && !(s.queue && s.pids[i] < 0));
	}
	return 0;
}
