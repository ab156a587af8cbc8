/* SPDX-License-Identifier: MIT */
/* An event loop on poll(): SIGINT and SIGTERM end it, SIGCHLD reaps
 * children. Usage: poll-loop [N] starts N children that exit at once with
 * status 0..N-1, to have some SIGCHLD to handle. */
#define _POSIX_C_SOURCE 200809L
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sigfd.h>

int main(int argc, char **argv)
{
	sigset_t mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGCHLD);
	/* Blocked, the signals stay pending for the descriptor instead of
	 * running their default action. Block before the first fork. */
	sigprocmask(SIG_BLOCK, &mask, NULL);
	int fd = sigfd(&mask, SIGFD_CLOEXEC);
	if (fd < 0) {
		perror("sigfd");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("poll-loop: pid %d ready\n", (int)getpid());
	for (int i = 0, n = argc > 1 ? atoi(argv[1]) : 0; i < n; i++)
		if (fork() == 0)
			_exit(i);

	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	for (;;) {
		if (poll(&pfd, 1, -1) < 0) {
			perror("poll");
			return 1;
		}
		struct sigfd_siginfo si;
		if (read(fd, &si, sizeof si) != (ssize_t)sizeof si)
			continue;
		if (si.ssi_signo == SIGCHLD) {
			/* One SIGCHLD record can stand for several children:
			 * reap until none is left. */
			int status;
			pid_t pid;
			while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
				printf("child %d exited, status %d\n", (int)pid, WEXITSTATUS(status));
		} else {
			printf("signal %u from pid %u: exiting\n", si.ssi_signo, si.ssi_pid);
			close(fd);
			return 0;
		}
	}
}
