/* SPDX-License-Identifier: MIT */
/* Command lines of sigfd-watch and sigfd-send, parsed into plain structs.
 * No output, no exit, no allocation: a fuzzer can call these as functions,
 * any number of times (getopt's state is reset on each call). argv must be
 * NULL-terminated, as main()'s is; it is not reordered. */
#ifndef SIGFD_TOOLS_ARGS_H
#define SIGFD_TOOLS_ARGS_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

/* What the command line asks for. */
enum args_action { ARGS_RUN, ARGS_HELP, ARGS_VERSION };

struct watch_args {
	enum args_action action;
	int json;
	unsigned long long count; /* 0: no limit */
	int timed;
	struct timespec timeout;
	sigset_t set;   /* the signals to watch: named or all, less --exclude */
	int group;      /* forward to COMMAND's process group, not COMMAND alone */
	char **command; /* NULL, or COMMAND and its ARGs (points into argv) */
	const char *output; /* -o: the log's file, "-" for stdout; NULL: default */
	int quiet;          /* -q: no log, only errors */
	int trace;          /* -T: also log what tracefs says is sent to COMMAND's tree */
	int kill_after_set; /* -k: SIGKILL this long after a terminating signal */
	struct timespec kill_after;
	int rewriting;
	int rewrite[NSIG];  /* -r: signal N is passed on as rewrite[N] (0: dropped) */
	int success_set;
	unsigned char success[256]; /* -e: these exit statuses become 0 */
};

#define SEND_MAX_PIDS 128

struct send_args {
	enum args_action action;
	int sig;          /* 0: only check that the process exists */
	int queue;        /* sigqueue() with value, not kill() */
	union sigval value;
	pid_t pids[SEND_MAX_PIDS]; /* processes, or groups when negative */
	int npids;
};

/* 0, or -1 with a message naming the problem in msg (no program name, no
 * newline). A message is cut to fit size. */
int watch_parse(int argc, char **argv, struct watch_args *a, char *msg, size_t size);
/* Is word an option of sigfd-watch's whose value is the next word? */
int watch_word_wants_value(const char *word);
int send_parse(int argc, char **argv, struct send_args *a, char *msg, size_t size);

extern const char watch_usage[], send_usage[], tools_version[];

#endif
