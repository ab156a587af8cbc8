/* SPDX-License-Identifier: MIT */
/* SIGINT, SIGTERM and SIGCHLD in a GLib main loop: the sigfd is watched
 * with g_unix_fd_add(). SIGINT and SIGTERM end the loop, SIGCHLD reaps
 * children. (This program uses no g_child_watch_add() or g_spawn_*(), which
 * reap through GLib's own SIGCHLD handling: see sigfd(3) CAVEATS.)
 * Usage: glib-loop [N] starts N children that exit at once with status
 * 0..N-1. Build: cc glib-loop.c $(pkg-config --cflags --libs sigfd glib-2.0) */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib-unix.h>
#include <glib.h>
#include <sigfd.h>

static gboolean on_signals(gint fd, GIOCondition condition, gpointer data)
{
	GMainLoop *loop = data;
	struct sigfd_siginfo si;

	(void)condition;
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
			g_main_loop_quit(loop);
			return G_SOURCE_REMOVE;
		}
	}
	if (errno != EAGAIN)
		perror("read");
	return G_SOURCE_CONTINUE;
}

int main(int argc, char **argv)
{
	sigset_t mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGCHLD);
	/* Blocked before the first fork and before GLib starts any thread
	 * (its worker threads inherit the mask), so that every signal waits
	 * for the descriptor. */
	sigprocmask(SIG_BLOCK, &mask, NULL);
	int fd = sigfd(&mask, SIGFD_NONBLOCK | SIGFD_CLOEXEC);
	if (fd < 0) {
		perror("sigfd");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("glib-loop: pid %d ready\n", (int)getpid());
	/* Before the loop exists: the children own none of it. */
	for (int i = 0, n = argc > 1 ? atoi(argv[1]) : 0; i < n; i++)
		if (fork() == 0)
			_exit(i);

	GMainLoop *loop = g_main_loop_new(NULL, FALSE);
	g_unix_fd_add(fd, G_IO_IN, on_signals, loop);

	g_main_loop_run(loop);
	g_main_loop_unref(loop);
	close(fd);
	return 0;
}
