/* SPDX-License-Identifier: MIT */
/* Signals the program means for itself. A process-directed signal that a
 * thread leaves unblocked is the kernel's to deliver to that thread (its
 * handler, or its default action); the forwarding thread's signalfd would
 * take it first as often as not. The kernel already acts at send time on a
 * default action that ends the process, so what remains is a handler,
 * SIG_IGN, and the default actions that stop or ignore. Each thread's
 * blocked mask is SigBlk in /proc/self/task/TID/status; a thread that has
 * exited (Z, X: a main thread after pthread_exit()) takes no signal.
 * A disposition costs a system call, a tenth of a forwarded signal's time in
 * user space: what sigaction() said is reused until the coarse clock (no
 * TSC read, which a virtual machine may trap) moves on by one of the
 * kernel's ticks, or until the program next calls into share mode
 * (share_usual_forget()). */
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "share_tasks.h"
#include "share_usual.h"

static sigbits known, acted;    /* dispositions looked at; those acted on */
static struct timespec looked_at; /* when, by CLOCK_MONOTONIC_COARSE */

void share_usual_forget(void)
{
	known = 0;
}

static bool acted_on(int sig)
{
	struct sigaction sa;

	if (sigaction(sig, NULL, &sa) < 0)
		return false; /* libc's own signals */
	if (sa.sa_handler != SIG_DFL) /* a handler (either kind), or SIG_IGN */
		return true;
	switch (sig) {
	case SIGTSTP:
	case SIGTTIN:
	case SIGTTOU:
	case SIGCHLD:
	case SIGCONT:
	case SIGURG:
	case SIGWINCH:
		return true;
	}
	return false;
}

/* The signals thread tid (a name in task_dir) leaves unblocked; 0 when it
 * has gone or exited, or its status cannot be read. */
static sigbits unblocked_by(int task_dir, const char *tid)
{
	char path[64], status[4096], *state, *blocked;
	ssize_t n;
	size_t len = 0;
	int fd;

	snprintf(path, sizeof path, "%s/status", tid);
	fd = openat(task_dir, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	while (len < sizeof status - 1 && (n = read(fd, status + len, sizeof status - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	status[len] = 0;
	state = strstr(status, "\nState:\t");
	blocked = strstr(status, "\nSigBlk:\t");
	if (!state || !blocked || state[8] == 'Z' || state[8] == 'X')
		return 0;
	return ~(sigbits)strtoull(blocked + 9, NULL, 16);
}

struct unblocked_walk {
	sigbits check, unblocked;
};

/* Adds what thread name leaves unblocked; done once all of check is. */
static bool add_unblocked(int dir, pid_t tid, const char *name, void *arg)
{
	struct unblocked_walk *walk = arg;

	(void)tid;
	walk->unblocked |= unblocked_by(dir, name);
	return !(walk->check & ~walk->unblocked);
}

sigbits share_meant_for_program(sigbits bits)
{
	struct unblocked_walk walk = { 0, 0 };
	sigbits check;
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
	if (now.tv_sec != looked_at.tv_sec || now.tv_nsec != looked_at.tv_nsec) {
		known = 0;
		looked_at = now;
	}
	for (sigbits new = bits & ~known; new; new &= new - 1) {
		int sig = __builtin_ctzll(new) + 1;

		known |= SIGBIT(sig);
		if (acted_on(sig))
			acted |= SIGBIT(sig);
		else
			acted &= ~SIGBIT(sig);
	}
	check = bits & acted;
	if (!check)
		return 0;
	walk.check = check;
	(void)share_each_other_task(add_unblocked, &walk);
	return check & walk.unblocked;
}
