/* SPDX-License-Identifier: MIT */
/* Reaping for sigfd-watch -- COMMAND, each child's end logged once. The end
 * records come from waitid(), not from the SIGCHLD records: SIGCHLD is a
 * standard signal, and one sent while another is pending is merged into
 * it, so the record names only the first child (issue 27: the only exit
 * record was an orphan's, COMMAND's lost, 1 run in 20). waitid() with
 * WNOWAIT gives the same fields (pid, uid, code, status) of each child in
 * turn while it is still a zombie, so its name can still be read; only then
 * is it reaped. */
#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sender.h"
#include "watch.h"

int sigchld_is_end(const struct sigfd_siginfo *rec)
{
	return rec->ssi_signo == SIGCHLD &&
	       (rec->ssi_code == CLD_EXITED || rec->ssi_code == CLD_KILLED ||
		rec->ssi_code == CLD_DUMPED);
}

/* The record the child's own SIGCHLD carries, less its CPU times. */
static void end_record(const siginfo_t *si, struct sigfd_siginfo *rec)
{
	memset(rec, 0, sizeof *rec);
	rec->ssi_signo = SIGCHLD;
	rec->ssi_code = si->si_code;
	rec->ssi_pid = (uint32_t)si->si_pid;
	rec->ssi_uid = (uint32_t)si->si_uid;
	rec->ssi_status = si->si_status;
}

int reap_ended(struct reaper *r)
{
	siginfo_t si;
	int st;

	for (;;) {
		memset(&si, 0, sizeof si);
		if (waitid(P_ALL, 0, &si, WEXITED | WSTOPPED | WNOHANG | WNOWAIT) < 0)
			return errno != ECHILD; /* ECHILD: no child left */
		if (!si.si_pid)
			return 1; /* children left, none ended */
		pid_t pid = si.si_pid;
		if (si.si_code != CLD_EXITED && si.si_code != CLD_KILLED &&
		    si.si_code != CLD_DUMPED) {
			/* A stop, taken off. COMMAND's job-control stops are
			 * mirrored (watch_jobs.c); its SIGCHLD record says
			 * the rest. */
			siginfo_t stop;
			memset(&stop, 0, sizeof stop);
			/* Stops only: an end that came meanwhile stays. */
			if (waitid(P_PID, (id_t)pid, &stop, WSTOPPED | WNOHANG) == 0 &&
			    stop.si_pid == pid && pid == r->command &&
			    (stop.si_status == SIGTSTP || stop.si_status == SIGTTIN ||
			     stop.si_status == SIGTTOU))
				jobs_command_stopped(r->tty, pid, stop.si_status, r->a->group);
			continue;
		}
		char *line = NULL;
		size_t len = 0;
		if (sigismember(&r->a->set, SIGCHLD) == 1 && r->log->out && !r->log->broken) {
			struct sigfd_siginfo rec;
			end_record(&si, &rec);
			/* Formatted before the reap: the zombie still has its name. */
			if (!(line = log_format(r->log, &rec, sender_tick_now(), -1, &len)))
				log_lost(r->log);
		}
		while (waitpid(pid, &st, WNOHANG) < 0 && errno == EINTR)
			;
		if (pid == r->command) {
			/* Held back: COMMAND's end comes after what was
			 * read with it (reaper_flush). */
			r->done = 1;
			r->status = st;
			r->line = line;
			r->len = len;
		} else if (log_write(r->log, line, len) < 0)
			log_lost(r->log);
	}
}

void reaper_flush(struct reaper *r)
{
	/* What the kernel traced before COMMAND ended comes before its end. */
	if (r->done)
		trace_sync(r->trace);
	if (r->line && log_write(r->log, r->line, r->len) < 0)
		log_lost(r->log);
	r->line = NULL;
}
