/* SPDX-License-Identifier: MIT */
/* sigfd-watch --trace: the lines of a tracefs trace_pipe, and the tree of
 * processes they are kept for. Pure functions, tested on recorded lines
 * (tests/tools/watch_trace_parse). */
#ifndef SIGFD_TOOLS_TRACE_PARSE_H
#define SIGFD_TOOLS_TRACE_PARSE_H

#include <stddef.h>
#include <sys/types.h>

enum trace_kind {
	TRACE_NONE,   /* a line of another event: nothing to do */
	TRACE_SIGNAL, /* signal:signal_generate */
	TRACE_FORK,   /* sched:sched_process_fork */
	TRACE_OOM,    /* oom:mark_victim */
	TRACE_LOST,   /* "CPU:N [LOST M EVENTS]" */
	TRACE_MARK,   /* a line written to trace_marker: its text in comm */
};

struct trace_event {
	enum trace_kind kind;
	pid_t by;          /* the task it happened in (the sender; the parent) */
	char by_comm[32];  /* its name, "<...>" when the kernel lost it */
	int sig, err, code, group, result; /* signal_generate's fields */
	pid_t pid;         /* the target; the parent; the victim */
	char comm[32];     /* its name */
	pid_t child;       /* sched_process_fork's child */
	unsigned long lost;
};

/* One line, without its newline: 0 (ev->kind says what it was), or -1 for
 * a line that cannot be read. */
int trace_parse(const char *line, struct trace_event *ev);

/* signal_generate's res: "delivered", "ignored", "already-pending",
 * "overflow", "lose-info" or "unknown". */
const char *trace_result(int result);

/* The processes (and threads) descended from root, from the fork events
 * in the order they came: a bit for each pid up to pid_max. A pid that a
 * process out of the tree forks is out of it again (reused). */
struct trace_tree {
	unsigned char *bits;
	size_t max;
};
int tree_init(struct trace_tree *t, pid_t root, size_t pid_max);
void tree_free(struct trace_tree *t);
int tree_has(const struct trace_tree *t, pid_t pid);
void tree_fork(struct trace_tree *t, pid_t parent, pid_t child);

#endif
