/* SPDX-License-Identifier: MIT */
/* The SIGCHLD reaping loop. A standard signal is pending at most once, so
 * children that exit close together leave fewer SIGCHLD records than
 * children, and a record's ssi_pid names only one of them: on every SIGCHLD
 * record, reap with waitpid(-1, WNOHANG) until it reports none left.
 * Usage: reaper [N] starts N children (default 100) that exit at once, reaps
 * them all and says from how many records. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sigfd.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100, reaped = 0, records = 0, gate[2];
	sigset_t mask;

	if (n < 1) {
		fprintf(stderr, "usage: reaper [N]\n");
		return 2;
	}
	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	/* Blocked before the first fork, so no exit goes unreported. */
	sigprocmask(SIG_BLOCK, &mask, NULL);
	int fd = sigfd(&mask, SIGFD_CLOEXEC | SIGFD_NONBLOCK);
	if (fd < 0 || pipe(gate) < 0) {
		perror("reaper");
		return 1;
	}
	for (int i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0) { /* wait for the gate to open, then exit */
			char c;
			close(gate[1]);
			_exit(read(gate[0], &c, 1) == 0 ? 0 : 1);
		}
	}
	close(gate[0]);
	close(gate[1]); /* every child exits now */

	while (reaped < n) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		struct sigfd_siginfo si;

		if (poll(&p, 1, -1) < 0 && errno != EINTR) {
			perror("poll");
			return 1;
		}
		/* Take every record there is, then reap. */
		while (read(fd, &si, sizeof si) == (ssize_t)sizeof si)
			records++;
		/* The loop that matters: one record may stand for many children. */
		for (;;) {
			int status;
			pid_t pid = waitpid(-1, &status, WNOHANG);
			if (pid <= 0)
				break; /* 0: others still running; -1 ECHILD: none left */
			if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
				fprintf(stderr, "reaper: child %d failed\n", (int)pid);
			reaped++;
		}
	}
	printf("reaper: %d children reaped from %d SIGCHLD record%s\n", reaped, records,
	       records == 1 ? "" : "s");
	close(fd);
	return 0;
}
