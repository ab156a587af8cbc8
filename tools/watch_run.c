/* SPDX-License-Identifier: MIT */
/* sigfd-watch -- COMMAND: run COMMAND as an init does. Every signal but
 * SIGKILL and SIGSTOP is taken through one sigfd, logged (those chosen with
 * SIGNALs and --exclude) and passed on (as --rewrite says); SIGCHLD reaps
 * COMMAND and any orphan, and reports COMMAND's job-control stops
 * (watch_reap.c). Taking every signal is what keeps a signal from killing
 * us and orphaning COMMAND. When COMMAND ends, watch_shutdown.c decides
 * what happens to the rest and what our status is. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sender.h"
#include "signame.h"
#include "watch.h"

/* The group's members are found through /proc: one that is another PID
 * namespace's (pid 1 of a namespace made without mounting its own) lists
 * none of them. The signal still goes, without its value, said once. */
static int kill_group_without_value(pid_t pgid, int sig)
{
	static int said;
	char name[SIGNAME_MAX];

	if (!said++)
		warn("--group: /proc is not this PID namespace's, so queued values cannot reach "
		     "the group's members: %s and any later one go as plain signals",
		     signame_of(sig, name));
	return kill(-pgid, sig);
}

/* Pass a record's signal on as sig. A queued value is queued again with the
 * sender's pid and uid, as COMMAND would have seen it; rt_sigqueueinfo()
 * takes any code below 0 but SI_TKILL for another process. With --group it
 * is queued to each member of the group in turn (watch_procs.c): nothing
 * queues to a group. Everything else goes with kill(), from us. */
static void forward(const struct sigfd_siginfo *r, int sig, pid_t child, int group)
{
	char name[SIGNAME_MAX];
	int rc;

	if (r->ssi_code < 0 && r->ssi_code != SI_TKILL) {
		siginfo_t si;
		memset(&si, 0, sizeof si);
		si.si_signo = sig;
		si.si_code = r->ssi_code;
		if (r->ssi_code == SI_TIMER) {
			si.si_timerid = (int)r->ssi_tid;
			si.si_overrun = (int)r->ssi_overrun;
		} else {
			si.si_pid = (pid_t)r->ssi_pid;
			si.si_uid = (uid_t)r->ssi_uid;
		}
		si.si_value.sival_ptr = (void *)(uintptr_t)r->ssi_ptr;
		if (group && !sender_proc_is_ours())
			rc = kill_group_without_value(child, sig);
		else
			rc = group ? procs_queue_group(child, sig, &si)
				   : (int)syscall(SYS_rt_sigqueueinfo, child, sig, &si);
	} else
		rc = kill(group ? -child : child, sig);
	if (rc < 0 && errno != ESRCH) /* ESRCH: it has just ended */
		warn("passing %s on to %s %ld: %s", signame_of(sig, name),
		     group ? "process group" : "pid", (long)child, strerror(errno));
}

/* In the child: its own process group (in the terminal's foreground if we
 * were), the signals it would have had, then COMMAND. Our mask still blocks
 * SIGTTOU, so taking the terminal cannot stop it. */
static _Noreturn void start_command(char **command, int tty, int foreground, int report)
{
	int err;

	setpgid(0, 0);
	if (foreground)
		tcsetpgrp(tty, getpid());
	if (sigfd_restore_signals() == 0)
		execvp(command[0], command);
	err = errno;
	if (write(report, &err, sizeof err) < 0)
		_exit(EXIT_WRAP_SYSTEM);
	_exit(err == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN);
}

/* Start COMMAND: its pid, once it has exec'd (*ran) or failed to (then
 * said why; it exits 126 or 127). */
static pid_t spawn(const struct watch_args *a, int tty, bool *ran)
{
	int report[2], err, foreground = jobs_in_foreground(tty);
	ssize_t n;

	if (pipe2(report, O_CLOEXEC) < 0)
		die(say_system_status, "pipe: %s", strerror(errno));
	pid_t child = fork();
	if (child < 0)
		die(say_system_status, "fork: %s", strerror(errno));
	if (child == 0) {
		close(report[0]);
		start_command(a->command, tty, foreground, report[1]);
	}
	setpgid(child, child); /* both sides, so neither races the other */
	close(report[1]);
	while ((n = read(report[0], &err, sizeof err)) < 0 && errno == EINTR)
		;
	close(report[0]);
	*ran = n != (ssize_t)sizeof err;
	if (!*ran)
		warn("cannot run '%s': %s", a->command[0], strerror(err));
	else
		note("running pid %ld: %s", (long)child, a->command[0]);
	return child;
}

int run_command(const struct watch_args *a)
{
	struct sigfd_siginfo recs[16];
	struct watch_log log;
	unsigned long long tick;
	int logged = 0;
	pid_t me = getpid();
	sigset_t take;

	say_system_status = EXIT_WRAP_SYSTEM;
	say_quiet = a->quiet;
	log_open(&log, a);
	/* Orphans of COMMAND come to us to be reaped, not to init. */
	if (me != 1 && prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		warn("cannot become a subreaper (orphans go to init): %s", strerror(errno));
	sigfillset(&take);
	sigdelset(&take, SIGKILL);
	sigdelset(&take, SIGSTOP);
	int fd = take_signals(&take);
	int tty = jobs_terminal();
	for (int sig = 1; sig < NSIG; sig++)
		logged += sigismember(&a->set, sig) == 1;
	note("watching pid %ld for %d signal%s", (long)me, logged, logged == 1 ? "" : "s");
	/* Before COMMAND starts: its tree is known from its first fork on. */
	struct watch_trace *trace = a->trace ? trace_start(&log, a) : NULL;
	bool ran;
	pid_t child = spawn(a, tty, &ran);
	struct reaper rp = {.trace = trace, .a = a, .log = &log, .tty = tty, .command = child};
	struct shutdown sd = {.a = a, .reaper = &rp, .command = child};

	while (!rp.done) {
		int n = next_records(fd, shutdown_ms(&sd), recs, 16, &tick);
		/* On every pass: a steady stream of signals must not keep
		 * the time from running out. */
		shutdown_fire(&sd);
		for (int i = 0; i < n; i++) {
			const struct sigfd_siginfo *r = &recs[i];
			int sig = (int)r->ssi_signo, to = a->rewrite[sig];
			/* Not passed on: SIGCHLD, ours to act on; what we caused
			 * ourselves (the SIGPIPE of a dead log); anything once
			 * COMMAND has ended. */
			int pass = sig != SIGCHLD && !rp.done &&
				   !(r->ssi_pid == (uint32_t)me &&
				     (r->ssi_code == SI_USER || r->ssi_code == SI_TKILL));
			/* An end is logged as its child is reaped. */
			if (sigismember(&a->set, sig) == 1 && !sigchld_is_end(r) &&
			    log_record(&log, r, tick, pass && to != sig ? to : -1) < 0)
				log_lost(&log);
			if (sig == SIGCHLD)
				reap_ended(&rp);
			else if (sig == SIGCONT && !rp.done)
				/* fg of a job running in the background: the
				 * shell has given us the terminal. */
				jobs_give_terminal(tty, child);
			if (pass && to) {
				forward(r, to, child, a->group);
				shutdown_passed(&sd, to);
			}
		}
		/* COMMAND's end after everything read with it. */
		reaper_flush(&rp);
	}
	jobs_take_terminal(tty, child);
	if (tty >= 0)
		close(tty);
	shutdown_rest(&sd, fd, &log);
	trace_stop(trace);
	close(fd);
	return shutdown_status(a, rp.status, ran);
}
