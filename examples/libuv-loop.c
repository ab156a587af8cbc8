/* SPDX-License-Identifier: MIT */
/* SIGINT, SIGTERM and SIGCHLD in a libuv loop: the sigfd is watched with a
 * uv_poll_t. SIGINT and SIGTERM end the loop, SIGCHLD reaps children, and
 * uv_spawn() keeps working beside it (the glue below).
 * Usage: libuv-loop [N] starts N children that exit at once with status
 * 0..N-1: the even ones with uv_spawn() (sh -c 'exit I'), reported by
 * libuv's exit callback; the odd ones with fork(), this program's own.
 * Build: cc libuv-loop.c $(pkg-config --cflags --libs sigfd libuv)
 *
 * The glue (sigfd(3) CAVEATS, "Blocking SIGCHLD breaks event loops that
 * spawn"): libuv learns that a child it spawned has ended from its own
 * SIGCHLD handler, which never runs while SIGCHLD is blocked for the sigfd,
 * and reaping with waitpid(-1) would take its children from it. So each
 * SIGCHLD record is handed on to libuv: raised again while blocked, then
 * let through only inside sigsuspend(), which returns once libuv's handler
 * has run; libuv reaps its own children by pid on the loop's next turn.
 * This program reaps its own children by pid too, after the hand-over: a
 * SIGCHLD that came meanwhile went to libuv's handler, not to the sigfd;
 * and again after closing a uv_process_t, which may discard a SIGCHLD. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pthread.h>
#include <sigfd.h>
#include <uv.h>

#define MAX_CHILDREN 64

static uv_process_t spawned[MAX_CHILDREN];
static pid_t forked[MAX_CHILDREN]; /* 0: none, or reaped */
static int n_forked;

static void hand_sigchld_to_libuv(void)
{
	struct sigaction action;
	sigset_t during;

	/* libuv installs its handler at its first uv_spawn(); without one
	 * SIGCHLD is ignored and sigsuspend() would never return. */
	if (sigaction(SIGCHLD, NULL, &action) != 0 ||
	    (!(action.sa_flags & SA_SIGINFO) &&
	     (action.sa_handler == SIG_DFL || action.sa_handler == SIG_IGN)))
		return;
	pthread_sigmask(SIG_BLOCK, NULL, &during);
	sigdelset(&during, SIGCHLD);
	raise(SIGCHLD); /* pending for this thread: SIGCHLD is blocked */
	sigsuspend(&during);
}

static void reap_own_children(void)
{
	for (int i = 0; i < n_forked; i++) {
		int status;
		if (forked[i] > 0 && waitpid(forked[i], &status, WNOHANG) == forked[i]) {
			printf("child %d exited, status %d\n", (int)forked[i], WEXITSTATUS(status));
			forked[i] = 0;
		}
	}
}

static void on_spawned_exit(uv_process_t *process, int64_t exit_status, int term_signal)
{
	(void)term_signal;
	printf("child %d exited, status %d\n", process->pid, (int)exit_status);
	/* Closing libuv's last process handle sets SIGCHLD back to SIG_DFL,
	 * and the kernel then discards a pending SIGCHLD: no record of a child
	 * of this program's that exited just before would ever come. */
	uv_close((uv_handle_t *)process, NULL);
	reap_own_children();
}

static void close_handle(uv_handle_t *handle, void *arg)
{
	(void)arg;
	if (!uv_is_closing(handle))
		uv_close(handle, NULL);
}

static void on_signals(uv_poll_t *poll, int status, int events)
{
	struct sigfd_siginfo si;
	int fd = *(int *)poll->data;

	(void)events;
	if (status < 0) {
		fprintf(stderr, "libuv-loop: %s\n", uv_strerror(status));
		uv_walk(poll->loop, close_handle, NULL);
		return;
	}
	/* Nonblocking: take every record there is, then wait again. */
	while (read(fd, &si, sizeof si) == (ssize_t)sizeof si) {
		if (si.ssi_signo == SIGCHLD) {
			/* One record can stand for several children, of libuv
			 * and of this program. */
			hand_sigchld_to_libuv();
			reap_own_children();
		} else {
			printf("signal %u from pid %u: exiting\n", si.ssi_signo, si.ssi_pid);
			/* Every handle closed, uv_run() returns. */
			uv_walk(poll->loop, close_handle, NULL);
			return;
		}
	}
	if (errno != EAGAIN)
		perror("read");
}

static int spawn_exit(uv_loop_t *loop, uv_process_t *process, int status)
{
	char code[16];
	char *args[] = { "sh", "-c", code, NULL };
	uv_process_options_t options = { .file = "/bin/sh", .args = args, .exit_cb = on_spawned_exit };

	snprintf(code, sizeof code, "exit %d", status);
	/* libuv resets the child's signal mask and actions before exec. */
	return uv_spawn(loop, process, &options);
}

int main(int argc, char **argv)
{
	sigset_t mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGCHLD);
	/* Blocked before the first fork and before libuv starts any thread
	 * (its thread pool inherits the mask), so that every signal waits
	 * for the descriptor. */
	sigprocmask(SIG_BLOCK, &mask, NULL);
	int fd = sigfd(&mask, SIGFD_NONBLOCK | SIGFD_CLOEXEC);
	if (fd < 0) {
		perror("sigfd");
		return 1;
	}
	uv_loop_t *loop = uv_default_loop();
	uv_poll_t poll;
	int r = uv_poll_init(loop, &poll, fd);
	if (r == 0) {
		poll.data = &fd;
		r = uv_poll_start(&poll, UV_READABLE, on_signals);
	}
	if (r < 0) {
		fprintf(stderr, "libuv-loop: %s\n", uv_strerror(r));
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("libuv-loop: pid %d ready\n", (int)getpid());
	int n = argc > 1 ? atoi(argv[1]) : 0;
	for (int i = 0; i < n && i < MAX_CHILDREN; i++) {
		if (i % 2 == 0) {
			r = spawn_exit(loop, &spawned[i], i);
			if (r < 0)
				fprintf(stderr, "libuv-loop: uv_spawn: %s\n", uv_strerror(r));
		} else {
			pid_t pid = fork();
			if (pid == 0)
				_exit(i);
			if (pid > 0)
				forked[n_forked++] = pid;
			else
				perror("fork");
		}
	}

	uv_run(loop, UV_RUN_DEFAULT);
	r = uv_loop_close(loop);
	close(fd);
	if (r < 0) {
		fprintf(stderr, "libuv-loop: uv_loop_close: %s\n", uv_strerror(r));
		return 1;
	}
	return 0;
}
