/* SPDX-License-Identifier: MIT */
/* Lines of trace_pipe (see trace_parse.h). Each is
 *   TASK-PID [CPU] FLAGS TIMESTAMP: EVENT: FIELDS
 * with TASK right-aligned in 16 columns and free to hold spaces, dashes
 * and brackets; FIELDS as the event's "print fmt" in its format file. A
 * name field (comm=) may hold spaces too, so each is cut at the key that
 * the format puts after it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_parse.h"

/* Copy [from, to) into buf, cut to size. */
static void copy(char *buf, size_t size, const char *from, const char *to)
{
	size_t n = (size_t)(to - from);

	if (n >= size)
		n = size - 1;
	memcpy(buf, from, n);
	buf[n] = '\0';
}

/* The number after key in s: 0, or -1. */
static int number(const char *s, const char *key, long *out)
{
	const char *p = strstr(s, key);
	char *end;

	if (!p)
		return -1;
	*out = strtol(p + strlen(key), &end, 10);
	return end == p + strlen(key) ? -1 : 0;
}

/* The name between key and the last occurrence of next after it. */
static int name(const char *s, const char *key, const char *next, char *buf, size_t size)
{
	const char *p = strstr(s, key), *q, *end = NULL;

	if (!p)
		return -1;
	p += strlen(key);
	for (q = p; (q = strstr(q, next)); q++)
		end = q;
	if (!end)
		return -1;
	copy(buf, size, p, end);
	return 0;
}

/* "TASK-PID [CPU] ...": the task and pid before the event's name at ev. */
static int task(const char *line, const char *ev, struct trace_event *out)
{
	const char *br = NULL, *dash, *p;

	/* The last " [digits]" before the event: the CPU column. */
	for (p = line; (p = strstr(p, " [")) && p < ev; p++) {
		const char *d = p + 2;
		while (*d >= '0' && *d <= '9')
			d++;
		if (d > p + 2 && *d == ']')
			br = p;
	}
	if (!br)
		return -1;
	while (br > line && br[-1] == ' ') /* the pid is left-aligned */
		br--;
	for (dash = br; dash > line && dash[-1] != '-'; dash--)
		;
	if (dash == line || dash == br)
		return -1;
	char *end;
	long pid = strtol(dash, &end, 10);
	if (end != br)
		return -1;
	out->by = (pid_t)pid;
	for (p = line; *p == ' '; p++)
		;
	copy(out->by_comm, sizeof out->by_comm, p, dash - 1);
	return 0;
}

int trace_parse(const char *line, struct trace_event *ev)
{
	const char *p;
	long v[5];

	memset(ev, 0, sizeof *ev);
	if ((p = strstr(line, "[LOST ")) && number(p, "[LOST ", &v[0]) == 0) {
		ev->kind = TRACE_LOST;
		ev->lost = (unsigned long)v[0];
		return 0;
	}
	if ((p = strstr(line, ": signal_generate: "))) {
		const char *f = p + 19;
		if (task(line, p, ev) < 0 || number(f, "sig=", &v[0]) < 0 ||
		    number(f, " errno=", &v[1]) < 0 || number(f, " code=", &v[2]) < 0 ||
		    name(f, " comm=", " pid=", ev->comm, sizeof ev->comm) < 0)
			return -1;
		/* pid=, grp=, res= after the name: the last " pid=". */
		const char *after = strstr(f, " comm=") + 6, *q;
		for (q = after; (q = strstr(q, " pid=")); q++)
			after = q;
		if (number(after, " pid=", &v[3]) < 0 || number(after, " grp=", &v[4]) < 0)
			return -1;
		long res;
		if (number(after, " res=", &res) < 0)
			return -1;
		ev->kind = TRACE_SIGNAL;
		ev->sig = (int)v[0];
		ev->err = (int)v[1];
		ev->code = (int)v[2];
		ev->pid = (pid_t)v[3];
		ev->group = (int)v[4];
		ev->result = (int)res;
		return 0;
	}
	if ((p = strstr(line, ": sched_process_fork: "))) {
		const char *f = p + 22, *after, *q;
		if (task(line, p, ev) < 0 ||
		    name(f, "comm=", " pid=", ev->comm, sizeof ev->comm) < 0)
			return -1;
		/* " child_pid=" is last; " pid=" the last before " child_comm=". */
		if (!(after = strstr(f, " child_comm=")))
			return -1;
		for (q = after; (q = strstr(q, " child_pid=")); q++)
			after = q;
		if (number(after, " child_pid=", &v[1]) < 0)
			return -1;
		const char *pp = NULL;
		for (q = f; (q = strstr(q, " pid=")) && q < strstr(f, " child_comm=") + 1; q++)
			pp = q;
		if (!pp || number(pp, " pid=", &v[0]) < 0)
			return -1;
		ev->kind = TRACE_FORK;
		ev->pid = (pid_t)v[0];
		ev->child = (pid_t)v[1];
		return 0;
	}
	if ((p = strstr(line, ": mark_victim: "))) {
		const char *f = p + 15;
		if (task(line, p, ev) < 0 || number(f, "pid=", &v[0]) < 0)
			return -1;
		/* Newer kernels add comm= (and more) after pid=. */
		if (name(f, " comm=", " total-vm=", ev->comm, sizeof ev->comm) < 0)
			ev->comm[0] = '\0';
		ev->kind = TRACE_OOM;
		ev->pid = (pid_t)v[0];
		return 0;
	}
	if ((p = strstr(line, ": tracing_mark_write: "))) {
		const char *f = p + 22, *end = f + strlen(f);
		while (end > f && (end[-1] == ' ' || end[-1] == '\n'))
			end--;
		if (task(line, p, ev) < 0)
			return -1;
		copy(ev->comm, sizeof ev->comm, f, end);
		ev->kind = TRACE_MARK;
		return 0;
	}
	ev->kind = TRACE_NONE;
	return 0;
}

const char *trace_result(int result)
{
	/* enum trace_signal_result, include/trace/events/signal.h */
	static const char *const words[] = {"delivered", "ignored", "already-pending",
					    "overflow", "lose-info"};

	return result >= 0 && result < 5 ? words[result] : "unknown";
}

int tree_init(struct trace_tree *t, pid_t root, size_t pid_max)
{
	t->max = pid_max;
	if (!(t->bits = calloc(pid_max / 8 + 1, 1)))
		return -1;
	tree_fork(t, root, root);
	return 0;
}

void tree_free(struct trace_tree *t)
{
	free(t->bits);
	t->bits = NULL;
}

int tree_has(const struct trace_tree *t, pid_t pid)
{
	return pid > 0 && (size_t)pid <= t->max && (t->bits[pid / 8] >> (pid % 8) & 1);
}

void tree_fork(struct trace_tree *t, pid_t parent, pid_t child)
{
	if (child <= 0 || (size_t)child > t->max)
		return;
	if (parent == child || tree_has(t, parent))
		t->bits[child / 8] |= (unsigned char)(1u << (child % 8));
	else
		t->bits[child / 8] &= (unsigned char)~(1u << (child % 8));
}
