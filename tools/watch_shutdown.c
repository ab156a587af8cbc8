/* SPDX-License-Identifier: MIT */
/* The shutdown policy of sigfd-watch -- COMMAND: SIGKILL after
 * --kill-after once a signal that asks COMMAND to end has been passed on;
 * when COMMAND ends, SIGTERM for the rest of its group (--group) and, with
 * --kill-after, that long to wait for the rest (its group, the orphans we
 * adopted) before SIGKILL for the group; our status is COMMAND's, less what
 * --success-status maps to 0. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sender.h"
#include "signame.h"
#include "watch.h"

static double seconds(const struct timespec *t)
{
	return (double)t->tv_sec + (double)t->tv_nsec / 1e9;
}

void shutdown_passed(struct shutdown *s, int sig)
{
	/* The first one counts: more of them do not put SIGKILL off. */
	if (!s->a->kill_after_set || s->armed)
		return;
	if (sig == SIGTERM || sig == SIGINT || sig == SIGHUP || sig == SIGQUIT) {
		s->armed = 1;
		s->sig = sig;
		s->deadline = deadline_after(&s->a->kill_after);
	}
}

int shutdown_ms(const struct shutdown *s)
{
	return s->armed ? ms_until(&s->deadline) : -1;
}

void shutdown_fire(struct shutdown *s)
{
	char name[SIGNAME_MAX];

	if (!s->armed || ms_until(&s->deadline))
		return;
	s->armed = 0;
	note("pid %ld still running %g s after %s: sending SIGKILL%s", (long)s->command,
	     seconds(&s->a->kill_after), signame_of(s->sig, name),
	     s->a->group ? " to its process group" : "");
	kill(s->a->group ? -s->command : s->command, SIGKILL);
}

/* Reap what has ended, each logged: 1 while we have children left. */
static int children_left(const struct shutdown *s)
{
	return reap_ended(s->reaper);
}

/* The processes the shutdown reaches once COMMAND has ended, zombies not
 * counted: as pid 1, every other process of the namespace (the kernel
 * SIGKILLs them all as we exit); with --group, COMMAND's process group and
 * every process descended from us (the orphans we adopted, their
 * children); else none. With sig, each is sent sig. How many there are
 * (-1: unknown), and in *adopted those out of COMMAND's group. */
static int reach(const struct shutdown *s, int sig, int *adopted)
{
	struct procs list = {0};
	pid_t me = getpid();
	int n = 0;

	/* Counted before sig is sent: what it ends is gone at once. */
	*adopted = 0;
	if (me == 1) {
		if (sender_proc_is_ours() && procs_list(&list) == 0)
			for (size_t i = 0; i < list.n; i++)
				n += list.p[i].pid != me && list.p[i].state != 'Z';
		else /* not countable: kill(-1, 0) still says whether any is left */
			n = kill(-1, 0) == 0 ? -1 : 0;
		*adopted = n;
		procs_free(&list);
		if (sig)
			kill(-1, sig); /* all of them, a fork meanwhile too */
		return n;
	}
	if (!s->a->group)
		return 0;
	if (procs_list(&list) < 0) {
		if (sig)
			kill(-s->command, sig);
		return -1;
	}
	unsigned char *mark = calloc(list.n ? list.n : 1, 1);
	if (!mark) {
		procs_free(&list);
		if (sig)
			kill(-s->command, sig);
		return -1;
	}
	procs_ours(&list, me, mark);
	for (size_t i = 0; i < list.n; i++) {
		const struct proc_ids *p = &list.p[i];
		if (p->state == 'Z' || p->pid == me)
			continue;
		if (p->pgid == s->command)
			n++;
		else if (mark[i]) {
			n++;
			++*adopted;
			if (sig) {
				struct proc_ids want = {.pid = p->pid, .ppid = p->ppid};
				procs_signal(&want, sig, NULL);
			}
		}
	}
	free(mark);
	procs_free(&list);
	if (sig)
		kill(-s->command, sig);
	return n;
}

/* Whether any process the shutdown reaches is left. */
static int reach_left(const struct shutdown *s)
{
	int adopted;

	return reach(s, 0, &adopted) != 0;
}

/* Log what arrives within ms (not passed on: COMMAND is gone); how many. */
static int log_arrivals(const struct shutdown *s, int fd, int ms, struct watch_log *log)
{
	struct sigfd_siginfo recs[16];
	unsigned long long tick;
	int n = next_records(fd, ms, recs, 16, &tick);

	for (int i = 0; i < n; i++) {
		if (sigismember(&s->a->set, (int)recs[i].ssi_signo) == 1 &&
		    !sigchld_is_end(&recs[i]) && log_record(log, &recs[i], tick, -1) < 0)
			log_lost(log);
		if (recs[i].ssi_signo == SIGCHLD)
			children_left(s);
	}
	return n;
}

/* A process that is not our child sends us no SIGCHLD as it ends: while
 * one may be waited for, look again this often. */
#define LOOK_MS 20

/* After SIGKILL: reap and log what it killed as it goes, for at most
 * GONE_MS (a process stopped in the kernel may take long). */
#define GONE_MS 2000
static void gone(const struct shutdown *s, int fd, struct watch_log *log)
{
	struct timespec limit = {GONE_MS / 1000, (GONE_MS % 1000) * 1000000L};
	struct timespec deadline = deadline_after(&limit);
	int ms;

	while ((children_left(s), reach_left(s)) && (ms = ms_until(&deadline)) > 0)
		log_arrivals(s, fd, ms < LOOK_MS ? ms : LOOK_MS, log);
}

/* With no --kill-after, how long pid 1 waits for the rest after SIGTERM. */
#define PID1_GRACE_S 5

void shutdown_rest(struct shutdown *s, int fd, struct watch_log *log)
{
	struct timespec grace = s->a->kill_after, deadline;
	int adopted, n, wide = getpid() == 1 || s->a->group;

	if (wide && (n = reach(s, SIGTERM, &adopted)) != 0) {
		if (getpid() == 1)
			note("pid %ld has ended: SIGTERM to every other process of the namespace%s",
			     (long)s->command, n > 0 ? "" : " (not counted: /proc is not ours)");
		else if (adopted)
			note("pid %ld has ended: SIGTERM to the rest of its process group and to %d adopted process%s",
			     (long)s->command, adopted, adopted == 1 ? "" : "es");
		else
			note("pid %ld has ended: SIGTERM to the rest of its process group",
			     (long)s->command);
	}
	if (!s->a->kill_after_set) {
		/* As pid 1 our end is SIGKILL for the rest: give them time. */
		if (getpid() != 1)
			return;
		grace.tv_sec = PID1_GRACE_S;
		grace.tv_nsec = 0;
	}
	deadline = deadline_after(&grace);
	/* Wake on each SIGCHLD to reap; other signals are logged. */
	while (children_left(s) || (wide && reach_left(s))) {
		int ms = ms_until(&deadline);
		if (ms == 0) {
			if (wide && (n = reach(s, 0, &adopted)) != 0) {
				if (getpid() == 1)
					note("processes still there %g s after COMMAND: sending SIGKILL to every other process of the namespace",
					     seconds(&grace));
				else if (adopted)
					note("process group %ld or adopted processes still there %g s after COMMAND: sending SIGKILL",
					     (long)s->command, seconds(&grace));
				else
					note("process group %ld still there %g s after COMMAND: sending SIGKILL",
					     (long)s->command, seconds(&grace));
				reach(s, SIGKILL, &adopted);
				gone(s, fd, log);
			}
			/* What SIGKILL did not reach (without --group, the
			 * orphans we adopted) is left, and said so. */
			if (children_left(s))
				note("leaving processes still running %g s after COMMAND",
				     seconds(&grace));
			break;
		}
		log_arrivals(s, fd, wide && ms > LOOK_MS ? LOOK_MS : ms, log);
	}
	/* The last ones may have ended, and been reaped above, before we read
	 * their SIGCHLD: it is queued already (the kernel sends it as the
	 * child becomes a zombie), so it is logged now, without waiting; a
	 * flood from outside cannot keep us here (at most 64 batches). */
	for (int batches = 0; batches < 64 && log_arrivals(s, fd, 0, log) > 0; batches++)
		;
}

int shutdown_status(const struct watch_args *a, int status, bool ran)
{
	int code = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);

	return ran && code < 256 && a->success[code] ? 0 : code;
}
