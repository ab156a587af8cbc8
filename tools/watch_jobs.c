/* SPDX-License-Identifier: MIT */
/* Job control for sigfd-watch -- COMMAND in a terminal. COMMAND leads a
 * process group of its own, which has the terminal while we are in the
 * foreground, so Ctrl-C and Ctrl-Z go straight to it. The shell, though,
 * waits for us: when COMMAND stops on SIGTSTP, SIGTTIN or SIGTTOU we stop
 * ourselves with the same signal, so the shell sees its job stopped, with
 * the right words ("Stopped (tty input)"); when the shell continues us (fg
 * or bg) we hand COMMAND the terminal if the shell gave it to us, then
 * continue COMMAND's group. dumb-init does the like; tini leaves the shell
 * waiting for ever. SIGTTOU is blocked in us throughout (we take every
 * signal), so tcsetpgrp() from the background cannot stop us. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "watch.h"

/* The controlling terminal, not fd 0's: `git log | sigfd-watch -- less`
 * reads the terminal through /dev/tty, as a password prompt does. */
int jobs_terminal(void)
{
	return open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
}

/* A group outside our PID namespace reads as 0, as ours does where we are
 * pid 1 of one: 0 == 0 is no foreground. */
int jobs_in_foreground(int tty)
{
	pid_t front = tty >= 0 ? tcgetpgrp(tty) : -1;

	return front > 0 && front == getpgrp();
}

void jobs_give_terminal(int tty, pid_t command)
{
	if (jobs_in_foreground(tty))
		tcsetpgrp(tty, command);
}

void jobs_take_terminal(int tty, pid_t command)
{
	if (tty >= 0 && tcgetpgrp(tty) == command)
		tcsetpgrp(tty, getpgrp());
}

static int sigcont_pending(void)
{
	sigset_t pending;

	return sigpending(&pending) == 0 && sigismember(&pending, SIGCONT) == 1;
}

static int said_stays_stopped;

void jobs_command_stopped(int tty, pid_t command, int sig, int group)
{
	struct sigaction dfl = {.sa_handler = SIG_DFL}, old;
	sigset_t one;

	(void)group; /* a terminal stops COMMAND's whole group: all go on */
	sigemptyset(&one);
	sigaddset(&one, sig);
	sigemptyset(&dfl.sa_mask);
	/* Pending while blocked, delivered (with its default action: stop) as
	 * soon as it is unblocked; we go on from there once continued. The
	 * kernel drops it where a stop would leave no one to continue us (pid
	 * 1 of a namespace, an orphaned process group, as in a container or
	 * a service): then COMMAND goes on at once, as it would have without
	 * us, its own group being orphaned there too. */
	sigaction(sig, &dfl, &old);
	kill(getpid(), sig);
	/* Stopped for touching the terminal from the background while the
	 * shell was already bringing us to the foreground (fg right after
	 * bg): the terminal is ours now, or already COMMAND's if we saw the
	 * shell's SIGCONT first, and there is nothing to stop for. Looked at
	 * only now that our stop is pending: the shell gives the terminal
	 * before its SIGCONT, and a SIGCONT sent before our stop was made
	 * would not end it, one sent after does. */
	pid_t front = tty >= 0 ? tcgetpgrp(tty) : -1;

	if (sig != SIGTSTP && front > 0 && (front == getpgrp() || front == command)) {
		struct timespec now = { 0, 0 };

		while (sigtimedwait(&one, NULL, &now) < 0 && errno == EINTR)
			;
	} else {
		sigprocmask(SIG_UNBLOCK, &one, NULL);
		sigprocmask(SIG_BLOCK, &one, NULL);
		/* A stop that was carried out ended with a SIGCONT, pending
		 * here (we take it through our sigfd; making the stop flushed
		 * any older one). None: the kernel dropped our stop. COMMAND
		 * stopped on the terminal would then only stop again at once
		 * on going on, for ever: it stays stopped until continued. */
		if (sig != SIGTSTP && !sigcont_pending()) {
			sigaction(sig, &old, NULL);
			if (!said_stays_stopped++)
				warn("COMMAND stopped on %s (the terminal, from the background), and "
				     "sigfd-watch cannot stop in its place (pid 1, or an orphaned process "
				     "group): it stays stopped until continued",
				     sig == SIGTTIN ? "SIGTTIN" : "SIGTTOU");
			return;
		}
	}
	sigaction(sig, &old, NULL);
	jobs_give_terminal(tty, command);
	kill(-command, SIGCONT);
}
