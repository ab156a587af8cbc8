/* SPDX-License-Identifier: MIT */
/* A bare forwarding thread: the simplest user-space design that takes
 * signals on one thread and hands them to a descriptor. The thread, with
 * every signal blocked, reads a blocking signalfd and writes the records
 * into a pipe (forward-thread) or an AF_UNIX stream socket
 * (forward-socket: share mode's transport, which no holder can write
 * into); the loop reads the other end. It has none of
 * share mode's other duties (routing, coalescing, room, hang-up), so it
 * shows what the extra thread alone costs: the floor under any design that
 * forwards in user space. When the pipe or socket is full the thread blocks
 * and signals wait in the kernel queue, so it loses nothing. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bench.h"

struct fw {
	int sfd, r, w;
	pthread_t thread;
};

static void *forward(void *arg)
{
	struct fw *f = arg;
	struct signalfd_siginfo buf[64];

	for (;;) {
		ssize_t n = read(f->sfd, buf, sizeof buf);
		if (n <= 0 && errno != EINTR)
			return NULL;
		if (n > 0 && write_all(f->w, buf, (size_t)n) < 0)
			return NULL;
	}
}

static void *setup(int signo, char *err, size_t n, bool socket)
{
	struct fw *f = calloc(1, sizeof *f);
	sigset_t set, all, old;
	int fds[2], rc;

	sigemptyset(&set);
	sigaddset(&set, signo);
	if (!f || block_sig(signo) < 0 ||
	    (socket ? socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) : pipe2(fds, O_CLOEXEC)) < 0) {
		errf(err, n, "setup: %s", strerror(errno));
		free(f);
		return NULL;
	}
	f->r = fds[0];
	f->w = fds[1];
	f->sfd = signalfd(-1, &set, SFD_CLOEXEC);
	if (f->sfd < 0) {
		errf(err, n, "signalfd: %s", strerror(errno));
		goto fail;
	}
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&f->thread, NULL, forward, f);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc == 0)
		return f;
	errf(err, n, "pthread_create: %s", strerror(rc));
	close(f->sfd);
fail:
	close(f->r);
	close(f->w);
	free(f);
	return NULL;
}

static void *pipe_setup(int signo, char *err, size_t n)
{
	return setup(signo, err, n, false);
}

static void *socket_setup(int signo, char *err, size_t n)
{
	return setup(signo, err, n, true);
}

static int fw_one(void *st, struct rec *out, int timeout_ms)
{
	return fdrec_read(((struct fw *)st)->r, out, 1, timeout_ms);
}

static int fw_batch(void *st, struct rec *out, int max, int timeout_ms)
{
	return fdrec_read(((struct fw *)st)->r, out, max, timeout_ms);
}

static void fw_teardown(void *st)
{
	struct fw *f = st;

	/* read() and write() are cancellation points. */
	pthread_cancel(f->thread);
	pthread_join(f->thread, NULL);
	close(f->sfd);
	close(f->r);
	close(f->w);
	free(f);
}

const struct mech mech_forward_thread = {
	.name = "forward-thread",
	.what = "a bare thread: blocking signalfd read -> pipe (the user-space floor)",
	.flags = M_VALUES,
	.setup = pipe_setup,
	.wait_one = fw_one,
	.wait_batch = fw_batch,
	.teardown = fw_teardown,
};

const struct mech mech_forward_socket = {
	.name = "forward-socket",
	.what = "the same thread writing an AF_UNIX stream socket (share mode's transport)",
	.flags = M_VALUES,
	.setup = socket_setup,
	.wait_one = fw_one,
	.wait_batch = fw_batch,
	.teardown = fw_teardown,
};
