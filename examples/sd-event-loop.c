/* SPDX-License-Identifier: MIT */
/* SIGINT, SIGTERM and SIGCHLD in an sd-event loop (libsystemd): the sigfd
 * is an I/O source, sd_event_add_io(). SIGINT and SIGTERM end the loop,
 * SIGCHLD reaps children. (This program uses neither sd_event_add_signal()
 * nor sd_event_add_child(), sd-event's own signalfd and reaping.)
 * Usage: sd-event-loop [N] starts N children that exit at once with status
 * 0..N-1. Build: cc sd-event-loop.c $(pkg-config --cflags --libs sigfd libsystemd) */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sigfd.h>
#include <systemd/sd-event.h>

static int on_signals(sd_event_source *source, int fd, uint32_t revents, void *data)
{
	struct sigfd_siginfo si;

	(void)revents;
	(void)data;
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
			return sd_event_exit(sd_event_source_get_event(source), 0);
		}
	}
	if (errno != EAGAIN)
		perror("read");
	return 0;
}

int main(int argc, char **argv)
{
	sigset_t mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGCHLD);
	/* Blocked before the first fork, so that every signal waits for the
	 * descriptor. */
	sigprocmask(SIG_BLOCK, &mask, NULL);
	int fd = sigfd(&mask, SIGFD_NONBLOCK | SIGFD_CLOEXEC);
	if (fd < 0) {
		perror("sigfd");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("sd-event-loop: pid %d ready\n", (int)getpid());
	/* Before the loop exists: the children own none of it. */
	for (int i = 0, n = argc > 1 ? atoi(argv[1]) : 0; i < n; i++)
		if (fork() == 0)
			_exit(i);

	sd_event *event = NULL;
	sd_event_source *source = NULL;
	int r = sd_event_default(&event);
	if (r >= 0)
		r = sd_event_add_io(event, &source, fd, EPOLLIN, on_signals, NULL);
	if (r < 0) {
		fprintf(stderr, "sd-event-loop: %s\n", strerror(-r));
		return 1;
	}

	r = sd_event_loop(event);
	sd_event_source_unref(source);
	sd_event_unref(event);
	close(fd);
	if (r < 0) {
		fprintf(stderr, "sd-event-loop: %s\n", strerror(-r));
		return 1;
	}
	return 0;
}
