/* SPDX-License-Identifier: MIT */
/* The shutdown policy of sigfd-watch -- COMMAND: SIGKILL after
 * --kill-after once a signal that asks COMMAND to end has been passed on;
 * when COMMAND ends, SIGTERM for the rest of its group (--group) and, with
 * --kill-after, that long to wait for the rest (its group, the orphans we
 * adopted) before SIGKILL for the group; our status is COMMAND's, less what
 * --success-status maps to 0. */
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

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

static int group_left(const struct shutdown *s)
{
	return s->a->group && kill(-s->command, 0) == 0;
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

/* After SIGKILL to the group: reap and log its members as they go, for at
 * most GROUP_GONE_MS (a member stopped in the kernel may take long). */
#define GROUP_GONE_MS 2000
static void group_gone(const struct shutdown *s, int fd, struct watch_log *log)
{
	struct timespec limit = { GROUP_GONE_MS / 1000, (GROUP_GONE_MS % 1000) * 1000000L };
	struct timespec deadline = deadline_after(&limit);
	int ms;

	while ((children_left(s), group_left(s)) && (ms = ms_until(&deadline)) > 0)
		log_arrivals(s, fd, ms, log);
}

void shutdown_rest(struct shutdown *s, int fd, struct watch_log *log)
{
	struct timespec deadline;

	if (s->a->group && kill(-s->command, SIGTERM) == 0)
		note("pid %ld has ended: SIGTERM to the rest of its process group",
		     (long)s->command);
	if (!s->a->kill_after_set)
		return;
	deadline = deadline_after(&s->a->kill_after);
	/* Wake on each SIGCHLD to reap; other signals are logged. */
	while (children_left(s) || group_left(s)) {
		int ms = ms_until(&deadline);
		if (ms == 0) {
			if (group_left(s)) {
				note("process group %ld still there %g s after COMMAND: sending SIGKILL",
				     (long)s->command, seconds(&s->a->kill_after));
				kill(-s->command, SIGKILL);
				group_gone(s, fd, log);
			}
			/* What SIGKILL did not reach (processes out of the
			 * group, adopted orphans) is left, and said so. */
			if (children_left(s))
				note("leaving processes still running %g s after COMMAND",
				     seconds(&s->a->kill_after));
			break;
		}
		log_arrivals(s, fd, ms, log);
	}
	/* The last ones may have ended, and been reaped above, before we read
	 * their SIGCHLD: it is queued already (the kernel sends it as the
	 * child becomes a zombie), so it is logged now, without waiting; a
	 * flood from outside cannot keep us here (at most 64 batches). */
	for (int batches = 0; batches < 64 && log_arrivals(s, fd, 0, log) > 0; batches++)
		;
}

int shutdown_status(const struct watch_args *a, int status)
{
	int code = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);

	return code < 256 && a->success[code] ? 0 : code;
}
