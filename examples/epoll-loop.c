/* SPDX-License-Identifier: MIT */
/* The poll-loop example on epoll: SIGINT and SIGTERM end it, SIGCHLD reaps
 * children. Usage: epoll-loop [N] starts N children that exit at once with
 * status 0..N-1. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
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
	sigprocmask(SIG_BLOCK, &mask, NULL); /* before the first fork */
	/* Nonblocking: an edge- or level-triggered loop can read until EAGAIN. */
	int fd = sigfd(&mask, SIGFD_NONBLOCK | SIGFD_CLOEXEC);
	int ep = epoll_create1(EPOLL_CLOEXEC);
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };
	if (fd < 0 || ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) < 0) {
		perror("epoll-loop");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("epoll-loop: pid %d ready\n", (int)getpid());
	for (int i = 0, n = argc > 1 ? atoi(argv[1]) : 0; i < n; i++)
		if (fork() == 0)
			_exit(i);

	for (;;) {
		if (epoll_wait(ep, &ev, 1, -1) < 0) {
			perror("epoll_wait");
			return 1;
		}
		struct sigfd_siginfo si[8];
		ssize_t len;
		/* Several records per read; drain until EAGAIN. */
		while ((len = read(fd, si, sizeof si)) > 0) {
			for (size_t k = 0; k < (size_t)len / sizeof si[0]; k++) {
				if (si[k].ssi_signo == SIGCHLD) {
					int status;
					pid_t pid;
					while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
						printf("child %d exited, status %d\n", (int)pid,
						       WEXITSTATUS(status));
				} else {
					printf("signal %u from pid %u: exiting\n", si[k].ssi_signo,
					       si[k].ssi_pid);
					close(ep);
					close(fd);
					return 0;
				}
			}
		}
	}
}
