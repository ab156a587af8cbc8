/* SPDX-License-Identifier: MIT */
/* SIGINT, SIGTERM and SIGCHLD in a libevent loop: the sigfd is one more
 * descriptor for event_new(). SIGINT and SIGTERM end the loop, SIGCHLD
 * reaps children. Usage: libevent-loop [N] starts N children that exit at
 * once with status 0..N-1. Build: cc libevent-loop.c $(pkg-config --cflags
 * --libs sigfd libevent) */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event2/event.h>
#include <sigfd.h>

static void on_signals(evutil_socket_t fd, short what, void *arg)
{
	struct event_base *base = arg;
	struct sigfd_siginfo si;

	(void)what;
	/* Nonblocking: take every record there is, then wait again. */
	while (read(fd, &si, sizeof si) == (ssize_t)sizeof si) {
		if (si.ssi_signo == SIGCHLD) {
			/* One SIGCHLD record can stand for several children:
			 * reap until none is left. */
			int status;
			pid_t pid;
			while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
				printf("child %d exited, status %d\n", (int)pid, WEXITSTATUS(status));
		} else {
			printf("signal %u from pid %u: exiting\n", si.ssi_signo, si.ssi_pid);
			event_base_loopbreak(base);
			return;
		}
	}
	if (errno != EAGAIN)
		perror("read");
}

int main(int argc, char **argv)
{
	sigset_t mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGCHLD);
	/* Blocked before the first fork and before libevent starts any
	 * thread, so that every signal waits for the descriptor. */
	sigprocmask(SIG_BLOCK, &mask, NULL);
	int fd = sigfd(&mask, SIGFD_NONBLOCK | SIGFD_CLOEXEC);
	if (fd < 0) {
		perror("sigfd");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("libevent-loop: pid %d ready\n", (int)getpid());
	/* Before the loop exists: the children own none of it. */
	for (int i = 0, n = argc > 1 ? atoi(argv[1]) : 0; i < n; i++)
		if (fork() == 0)
			_exit(i);

	struct event_base *base = event_base_new();
	struct event *ev = base ? event_new(base, fd, EV_READ | EV_PERSIST, on_signals, base) : NULL;
	if (!ev || event_add(ev, NULL) != 0) {
		fprintf(stderr, "libevent-loop: cannot set up the event loop\n");
		return 1;
	}
	int rc = event_base_dispatch(base);
	event_free(ev);
	event_base_free(base);
	close(fd);
	return rc < 0;
}
