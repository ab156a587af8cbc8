/* SPDX-License-Identifier: MIT */
/* sigfd-watch --trace: every signal the kernel generates for a process
 * descended from us (COMMAND's tree), read from the signal:signal_generate
 * tracepoint through tracefs, as killsnoop and bpftrace read it. That sees
 * what no sigfd can: SIGKILL and SIGSTOP, signals sent to COMMAND or its
 * children directly, the kernel's own (an OOM kill, tagged from
 * oom:mark_victim), with the sender as the kernel saw it. The tree is kept
 * from sched:sched_process_fork in the same stream (trace_parse.c). A
 * tracefs instance of our own is used, so the system's trace buffer and
 * other readers are left alone; a thread reads it, since tracefs has no
 * place in our sigfd's poll loop. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "describe.h"
#include "signame.h"
#include "trace_parse.h"
#include "watch.h"

struct watch_trace {
	struct watch_log *log;
	const struct watch_args *a;
	pid_t me;
	char dir[128]; /* our instance */
	int pipe_fd;   /* its trace_pipe */
	int mark_fd;   /* its trace_marker */
	int ctl[2];    /* to the thread: struct ask */
	int ack[2];    /* from the thread: done */
	pthread_t thread;
	struct trace_tree tree;
	unsigned seen;       /* the last marker read */
	unsigned long lost;  /* events the kernel lost */
	char buf[65536];
	size_t have;
};

/* What the reader is asked: to log up to marker upto, then end or not. */
struct ask {
	unsigned upto;
	int end;
};

/* Write s to dir/file: 0, or -1 with errno. */
static int put(const char *dir, const char *file, const char *s)
{
	char path[256];
	int fd, rc, err;

	snprintf(path, sizeof path, "%s/%s", dir, file);
	if ((fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)) < 0)
		return -1;
	rc = write_whole(fd, s, strlen(s));
	err = errno;
	close(fd);
	errno = err;
	return rc;
}

/* Where tracefs is: its usual mount point or debugfs's older one. It is
 * not mounted for the operator: a wrapper should not change the system. */
static const char *tracefs(void)
{
	static const char *const places[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};
	char path[64];

	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof path, "%s/instances", places[i]);
		if (access(path, F_OK) == 0)
			return places[i];
		if (errno == EACCES)
			return NULL; /* there, and root's */
	}
	return NULL;
}

/* One traced record, as one line of the log. */
static void trace_log(struct watch_trace *t, const struct trace_event *ev)
{
	struct sigfd_siginfo fake = {.ssi_signo = (uint32_t)ev->sig, .ssi_code = ev->code};
	char name[SIGNAME_MAX], tbuf[16], *line = NULL;
	int json = t->log->json, oom = ev->kind == TRACE_OOM;
	struct timespec now;
	size_t len = 0;
	struct tm tm;
	FILE *out;

	if (!(out = open_memstream(&line, &len)))
		return;
	clock_gettime(CLOCK_REALTIME, &now);
	signame_of(oom ? SIGKILL : ev->sig, name);
	if (json) {
		fprintf(out, "{\"time\":%lld.%06ld,\"signal\":\"%s\",\"origin\":\"%s\"",
			(long long)now.tv_sec, now.tv_nsec / 1000, name,
			oom ? "oom-victim" : "traced");
		if (!oom)
			fprintf(out, ",\"how\":\"%s\",\"ssi_code\":%d", describe_origin(&fake),
				ev->code);
		fprintf(out, ",\"to_pid\":%ld", (long)ev->pid);
		if (ev->comm[0]) {
			fputs(",\"to_comm\":", out);
			describe_string(out, ev->comm, 1);
		}
		fprintf(out, ",\"by_pid\":%ld,\"by_comm\":", (long)ev->by);
		describe_string(out, ev->by_comm, 1);
		if (!oom) {
			fprintf(out, ",\"result\":\"%s\"", trace_result(ev->result));
			if (!ev->group)
				fputs(",\"thread\":true", out);
			if (ev->err)
				fprintf(out, ",\"ssi_errno\":%d", ev->err);
		}
		fputs("}\n", out);
	} else {
		time_t s = now.tv_sec;
		if (!localtime_r(&s, &tm) || !strftime(tbuf, sizeof tbuf, "%H:%M:%S", &tm))
			strcpy(tbuf, "??:??:??");
		fprintf(out, "%s.%06ld %s %s", tbuf, now.tv_nsec / 1000, name,
			oom ? "oom-victim" : "traced");
		if (!oom)
			fprintf(out, " how=%s", describe_origin(&fake));
		fprintf(out, " to=%ld", (long)ev->pid);
		if (ev->comm[0]) {
			fputs(" to_comm=", out);
			describe_string(out, ev->comm, 0);
		}
		fprintf(out, " by=%ld by_comm=", (long)ev->by);
		describe_string(out, ev->by_comm, 0);
		if (!oom) {
			fprintf(out, " result=%s", trace_result(ev->result));
			if (!ev->group)
				fputs(" thread=1", out);
			if (ev->err)
				fprintf(out, " errno=%d", ev->err);
		}
		putc('\n', out);
	}
	if (fclose(out) != 0) {
		free(line);
		return;
	}
	if (log_write(t->log, line, len) < 0)
		t->log->broken = 1; /* the main thread says so when it next writes */
}

static void trace_line(struct watch_trace *t, const char *line)
{
	struct trace_event ev;

	if (trace_parse(line, &ev) < 0)
		return;
	switch (ev.kind) {
	case TRACE_FORK:
		tree_fork(&t->tree, ev.pid, ev.child);
		break;
	case TRACE_SIGNAL:
		/* Ours are in the log already, as received. */
		if (ev.pid != t->me && tree_has(&t->tree, ev.pid) &&
		    (sigismember(&t->a->set, ev.sig) == 1 || ev.sig == SIGKILL || ev.sig == SIGSTOP))
			trace_log(t, &ev);
		break;
	case TRACE_OOM:
		if (tree_has(&t->tree, ev.pid))
			trace_log(t, &ev);
		break;
	case TRACE_LOST:
		/* Said once as it happens, and the total at the end. */
		if (!t->lost)
			warn("--trace: the kernel is losing events (its buffer is full): "
			     "signals may be missing from the log");
		t->lost += ev.lost;
		break;
	case TRACE_MARK:
		if (ev.by == t->me && !strncmp(ev.comm, "sigfd-watch-sync ", 17))
			t->seen = (unsigned)strtoul(ev.comm + 17, NULL, 10);
		break;
	case TRACE_NONE:
		break;
	}
}

/* Read and log one buffer's worth: 0, or -1 when there was nothing. */
static int read_some(struct watch_trace *t)
{
	ssize_t n;

	while ((n = read(t->pipe_fd, t->buf + t->have, sizeof t->buf - 1 - t->have)) < 0 &&
	       errno == EINTR)
		;
	if (n <= 0)
		return -1; /* EAGAIN: none for now */
	t->have += (size_t)n;
	t->buf[t->have] = '\0';
	char *start = t->buf, *nl;
	while ((nl = strchr(start, '\n'))) {
		*nl = '\0';
		trace_line(t, start);
		start = nl + 1;
	}
	t->have -= (size_t)(start - t->buf);
	memmove(t->buf, start, t->have);
	if (t->have == sizeof t->buf - 1)
		t->have = 0; /* a line longer than the buffer: dropped */
	return 0;
}

/* Up to marker number upto, waiting at most CATCH_UP_MS: a steady flood of
 * events elsewhere must not keep us from it for ever. */
#define CATCH_UP_MS 2000
static void catch_up(struct watch_trace *t, unsigned upto)
{
	struct timespec limit = {CATCH_UP_MS / 1000, 0}, deadline = deadline_after(&limit);
	int ms;

	while ((int)(t->seen - upto) < 0 && (ms = ms_until(&deadline)) > 0) {
		struct pollfd p = {.fd = t->pipe_fd, .events = POLLIN};
		if (read_some(t) < 0)
			poll(&p, 1, ms);
	}
}

static void *reader(void *arg)
{
	struct watch_trace *t = arg;

	for (;;) {
		struct pollfd p[2] = {{.fd = t->pipe_fd, .events = POLLIN},
				      {.fd = t->ctl[0], .events = POLLIN}};
		struct ask q;
		if (poll(p, 2, -1) < 0 && errno != EINTR)
			break;
		if (p[0].revents & POLLIN)
			read_some(t);
		else if (p[0].revents)
			break; /* the instance is gone */
		if (p[1].revents) {
			if (read(t->ctl[0], &q, sizeof q) != sizeof q)
				q.end = 1;
			else
				catch_up(t, q.upto);
			if (write(t->ack[1], &q, sizeof q) != sizeof q || q.end)
				break;
		}
	}
	return NULL;
}

static void unavailable(const char *why, int err)
{
	warn("--trace: not available (%s%s%s); the log has only the signals sigfd-watch "
	     "receives", why, err ? ": " : "", err ? strerror(err) : "");
}

/* The kernel's initial PID namespace has a fixed inode number (Linux's
 * PROC_PID_INIT_INO): one that cannot be read is taken for it. */
#define INITIAL_PID_NS_INO 0xEFFFFFFCU

static int in_initial_pid_ns(void)
{
	struct stat st;

	return stat("/proc/self/ns/pid", &st) < 0 || st.st_ino == INITIAL_PID_NS_INO;
}

struct watch_trace *trace_start(struct watch_log *log, const struct watch_args *a)
{
	struct watch_trace *t = calloc(1, sizeof *t);
	const char *root = tracefs();
	long pid_max = 4194304;
	char buf[32];
	int fd, err;

	if (!t)
		return NULL;
	/* Its events give the initial namespace's pids: here none would be
	 * ours or COMMAND's, and every wrapper of a machine would be pid 1. */
	if (!in_initial_pid_ns()) {
		unavailable("in a PID namespace of its own: the kernel's trace events give the "
			    "initial namespace's pids",
			    0);
		free(t);
		return NULL;
	}
	if (!root) {
		unavailable(errno == EACCES ? "tracefs needs root"
					    : "no tracefs at /sys/kernel/tracing: as root, "
					      "mount -t tracefs nodev /sys/kernel/tracing",
			    errno);
		free(t);
		return NULL;
	}
	t->log = log;
	t->a = a;
	t->me = getpid();
	t->pipe_fd = t->mark_fd = t->ctl[0] = t->ctl[1] = t->ack[0] = t->ack[1] = -1;
	snprintf(t->dir, sizeof t->dir, "%s/instances/sigfd-watch-%ld", root, (long)t->me);
	/* One left by a sigfd-watch that had our pid and was SIGKILLed. */
	if (mkdir(t->dir, 0700) < 0 && (errno != EEXIST || rmdir(t->dir) < 0 || mkdir(t->dir, 0700) < 0)) {
		err = errno;
		unavailable(err == EACCES || err == EPERM ? "cannot make a tracefs instance: needs root"
							  : "cannot make a tracefs instance", err);
		free(t);
		return NULL;
	}
	/* Wake the reader on every event, not once the buffer is half full;
	 * one clock for all CPUs, so a fork comes before its child's signals. */
	put(t->dir, "buffer_percent", "0");
	/* An instance starts as small as the top buffer is (7 KB a CPU when
	 * unused): a burst of forks elsewhere filled it at once. */
	put(t->dir, "buffer_size_kb", "1024");
	put(t->dir, "trace_clock", "global");
	put(t->dir, "events/oom/mark_victim/enable", "1"); /* optional */
	if ((fd = open("/proc/sys/kernel/pid_max", O_RDONLY | O_CLOEXEC)) >= 0) {
		ssize_t n = read(fd, buf, sizeof buf - 1);
		close(fd);
		if (n > 0) {
			buf[n] = '\0';
			pid_max = atol(buf) > 0 ? atol(buf) : pid_max;
		}
	}
	char path[192];
	snprintf(path, sizeof path, "%s/trace_pipe", t->dir);
	if (put(t->dir, "events/sched/sched_process_fork/enable", "1") < 0 ||
	    put(t->dir, "events/signal/signal_generate/enable", "1") < 0) {
		unavailable("no signal:signal_generate or sched:sched_process_fork event", errno);
		goto fail;
	}
	if ((t->pipe_fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0) {
		unavailable("cannot open trace_pipe", errno);
		goto fail;
	}
	snprintf(path, sizeof path, "%s/trace_marker", t->dir);
	if ((t->mark_fd = open(path, O_WRONLY | O_CLOEXEC)) < 0) {
		unavailable("cannot open trace_marker", errno);
		goto fail;
	}
	if (tree_init(&t->tree, t->me, (size_t)pid_max) < 0 || pipe2(t->ctl, O_CLOEXEC) < 0 ||
	    pipe2(t->ack, O_CLOEXEC) < 0 || (errno = pthread_create(&t->thread, NULL, reader, t))) {
		unavailable("cannot start its reader", errno);
		goto fail;
	}
	note("tracing the signals generated for pid %ld's descendants (%s)", (long)t->me, t->dir);
	return t;
fail:
	for (int i = 0; i < 2; i++) {
		if (t->ctl[i] >= 0)
			close(t->ctl[i]);
		if (t->ack[i] >= 0)
			close(t->ack[i]);
	}
	if (t->pipe_fd >= 0)
		close(t->pipe_fd);
	if (t->mark_fd >= 0)
		close(t->mark_fd);
	tree_free(&t->tree);
	rmdir(t->dir);
	free(t);
	return NULL;
}

/* Have the reader log everything the kernel recorded before now: a marker
 * goes into the trace, and the reader reads up to it; then, with end, it
 * ends. */
static void ask(struct watch_trace *t, int end)
{
	static unsigned marks;
	struct ask q = {.upto = ++marks, .end = end};
	char mark[40];
	ssize_t n;

	snprintf(mark, sizeof mark, "sigfd-watch-sync %u", q.upto);
	/* Without its marker the reader waits its limit, no more. */
	(void)write_whole(t->mark_fd, mark, strlen(mark));
	if (write(t->ctl[1], &q, sizeof q) != sizeof q)
		return;
	while ((n = read(t->ack[0], &q, sizeof q)) < 0 && errno == EINTR)
		;
}

void trace_sync(struct watch_trace *t)
{
	if (t)
		ask(t, 0);
}

void trace_stop(struct watch_trace *t)
{
	if (!t)
		return;
	ask(t, 1);
	pthread_join(t->thread, NULL);
	if (t->lost)
		warn("--trace: the kernel lost %lu events in all (its buffer was full)", t->lost);
	close(t->mark_fd);
	for (int i = 0; i < 2; i++) {
		close(t->ctl[i]);
		close(t->ack[i]);
	}
	close(t->pipe_fd);
	/* Removing the instance turns its events off and frees its buffer. */
	if (rmdir(t->dir) < 0)
		warn("--trace: cannot remove %s: %s", t->dir, strerror(errno));
	tree_free(&t->tree);
	free(t);
}
