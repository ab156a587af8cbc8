/* SPDX-License-Identifier: MIT */
/* What sigfd-watch's own files share: messages (watch_say.c), the log
 * (watch_log.c), running COMMAND (watch_run.c) with its job control
 * (watch_jobs.c) and its shutdown policy (watch_shutdown.c), over the
 * records (watch_records.c) and deadlines (watch_deadline.c). The calls go
 * one way: sigfd-watch.c, then watch_run.c, then the rest. */
#ifndef SIGFD_TOOLS_WATCH_H
#define SIGFD_TOOLS_WATCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "args.h"
#include "sigfd.h"

/* Exit statuses, documented in sigfd-watch(1). */
enum { EXIT_DONE = 0, EXIT_TIMEOUT = 1, EXIT_USAGE = 2, EXIT_SYSTEM = 3 };
/* With a COMMAND, its status is ours; ours are env(1)'s. */
enum { EXIT_WRAP_SYSTEM = 125, EXIT_CANNOT_RUN = 126, EXIT_NOT_FOUND = 127 };

/* watch_say.c: "sigfd-watch: ..." lines on standard error. die() exits
 * with say_system_status when given it; note() is silenced by --quiet. */
extern int say_system_status, say_quiet;
_Noreturn __attribute__((format(printf, 2, 3))) void die(int status, const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void warn(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void note(const char *fmt, ...);

/* watch_log.c: the records' log. */
struct watch_log {
	FILE *out; /* NULL: --quiet */
	int json;
	int broken; /* a write failed; not tried again */
};
/* watch_say.c: all of buf to fd, in one write() unless it is cut short;
 * 0, or -1 and errno. */
int write_whole(int fd, const char *buf, size_t len);
/* Open the log the arguments ask for; exits on failure. */
void log_open(struct watch_log *log, const struct watch_args *a);
/* One record read at read_tick (sender_tick_now()), passed on as passed_as
 * (-1: as it came). 0, or -1 with errno when it could not be written. */
int log_record(struct watch_log *log, const struct sigfd_siginfo *rec,
	       unsigned long long read_tick, int passed_as);
/* log_record() in two steps: the line, malloc'd (NULL and errno on
 * failure), then written and freed (line may be NULL: nothing written). */
char *log_format(const struct watch_log *log, const struct sigfd_siginfo *rec,
		 unsigned long long read_tick, int passed_as, size_t *len);
int log_write(struct watch_log *log, char *line, size_t len);
/* A log write failed: say so once, write no more. */
void log_lost(struct watch_log *log);

/* watch_records.c: the records, waiting up to ms (-1: for ever): how many
 * were read into recs (at most n), 0 on timeout. *read_tick is set just
 * after the read. take_signals() blocks take and gives a sigfd for it. */
int next_records(int fd, int ms, struct sigfd_siginfo *recs, int n,
		 unsigned long long *read_tick);
int take_signals(const sigset_t *take);
/* watch_deadline.c: milliseconds until deadline (CLOCK_MONOTONIC), rounded
 * up; 0 once past. */
int ms_until(const struct timespec *deadline);
/* now + d, CLOCK_MONOTONIC */
struct timespec deadline_after(const struct timespec *d);

/* watch_trace.c: --trace. NULL (and a warning said) where the kernel
 * cannot be asked. trace_sync() logs what the kernel has recorded so far;
 * trace_stop() logs the rest and frees (both take NULL). */
struct watch_trace;
struct watch_trace *trace_start(struct watch_log *log, const struct watch_args *a);
void trace_sync(struct watch_trace *t);
void trace_stop(struct watch_trace *t);

/* watch_reap.c: reaping. */
struct reaper {
	struct watch_trace *trace; /* synced before COMMAND's end is written */
	const struct watch_args *a;
	struct watch_log *log;
	int tty;
	pid_t command;
	int done;   /* COMMAND has been reaped */
	int status; /* then its wait status */
	char *line; /* its end record, held for reaper_flush() */
	size_t len;
};
/* Reap every child that has ended, each logged (when SIGCHLD is) as the
 * SIGCHLD record it would have had alone; COMMAND's job-control stops are
 * mirrored. 1 while children are left, 0 when there are none. */
int reap_ended(struct reaper *r);
/* Write COMMAND's end record, held back by reap_ended(). */
void reaper_flush(struct reaper *r);
/* A SIGCHLD record for an end: logged by reap_ended(), not as it came. */
int sigchld_is_end(const struct sigfd_siginfo *rec);

/* watch_procs.c: the processes of our pid namespace, from /proc. */
struct proc_ids {
	pid_t pid, ppid, pgid;
	char state; /* 'Z': a zombie */
};
struct procs {
	struct proc_ids *p;
	size_t n, cap;
};
/* Every process now: 0, or -1 with errno. procs_free() frees the list. */
int procs_list(struct procs *list);
void procs_free(struct procs *list);
/* Signal want->pid with sig (queued with si when not NULL) through a
 * pidfd, only if its process group and parent are still want's (0: any):
 * 0, or -1 with errno (ESRCH: gone, or another process now). */
int procs_signal(const struct proc_ids *want, int sig, siginfo_t *si);
/* Mark (mark[i] = 1) the processes of list descended from me: how many. */
int procs_ours(const struct procs *list, pid_t me, unsigned char *mark);
/* Queue sig with si to each member of process group pgid, each once:
 * 0, or -1 with errno (ESRCH: no member). */
int procs_queue_group(pid_t pgid, int sig, siginfo_t *si);

/* watch_run.c: run COMMAND as an init; its exit status. */
int run_command(const struct watch_args *a);

/* watch_jobs.c: job control for a COMMAND in its own process group. tty is
 * a terminal descriptor or -1. */
/* Our controlling terminal, whatever fds 0-2 are (close-on-exec), or -1. */
int jobs_terminal(void);
/* Does our group have the terminal? */
int jobs_in_foreground(int tty);
/* At start and after being continued: if our group has the terminal, hand
 * it to COMMAND's. */
void jobs_give_terminal(int tty, pid_t command);
/* When COMMAND ends: the terminal back to our group if COMMAND's had it. */
void jobs_take_terminal(int tty, pid_t command);
/* COMMAND stopped with signal sig: stop ourselves the same way, so the shell
 * sees its job stopped, then, once continued (or at once where we cannot
 * stop: pid 1, an orphaned group), continue COMMAND. */
void jobs_command_stopped(int tty, pid_t command, int sig, int group);

/* watch_shutdown.c: the shutdown policy. */
struct shutdown {
	const struct watch_args *a;
	struct reaper *reaper;
	pid_t command;
	int armed; /* SIGKILL due at deadline */
	int sig;   /* the signal that armed it */
	struct timespec deadline;
};
/* A signal sig was passed on to COMMAND: arm the --kill-after timer if it
 * is one that asks COMMAND to end. */
void shutdown_passed(struct shutdown *s, int sig);
/* The poll timeout until the timer fires: -1 when not armed. */
int shutdown_ms(const struct shutdown *s);
/* The timer is due (shutdown_ms() returned 0): SIGKILL COMMAND. */
void shutdown_fire(struct shutdown *s);
/* COMMAND has ended: the rest of its group, adopted processes. */
void shutdown_rest(struct shutdown *s, int fd, struct watch_log *log);
/* Our exit status for COMMAND's wait status: --success-status counts only
 * for a COMMAND that ran (126 and 127 are ours). */
int shutdown_status(const struct watch_args *a, int status, bool ran);

#endif
