/* SPDX-License-Identifier: MIT */
/* A thread created after the forwarding thread last looked, that leaves a
 * signal unblocked, gets that signal: the look keeps the other threads'
 * status files open and must notice a thread it holds none for (the first
 * file's Threads line). Each round: one SIGUSR2 read from the share fd
 * (every thread blocks it; the thread has just looked), then a new thread
 * unblocks it and waits, and a SIGUSR2 is sent to the process: the new
 * thread's handler must get it, never the descriptor. The user-space
 * backend's rule (sigfd(3)). */
#include "unblocked_rounds.h"

/* Unblocks SIGUSR2, says so on the pipe given, waits for its end to close. */
static void *unblock_and_wait(void *arg)
{
	int *pipes = arg; /* ready[1], quit[0] */
	sigset_t usr2 = set_of(SIGUSR2);
	char c;

	CHECK(pthread_sigmask(SIG_UNBLOCK, &usr2, NULL) == 0);
	put_byte(pipes[0]);
	while (read(pipes[1], &c, 1) < 0)
		CHECK(errno == EINTR);
	return NULL;
}

static int fd, ready[2], quit[2];

static int round_with_new_thread(void)
{
	int pipes[2] = { ready[1], quit[0] }, stolen;
	pthread_t t;
	char c;

	CHECK(kill(getpid(), SIGUSR2) == 0);
	CHECK(read_one(fd).ssi_signo == SIGUSR2);
	CHECK(pthread_create(&t, NULL, unblock_and_wait, pipes) == 0);
	CHECK(read(ready[0], &c, 1) == 1);
	CHECK(kill(getpid(), SIGUSR2) == 0);
	stolen = taken_or_handled(fd, SIGUSR2);
	put_byte(quit[1]);
	CHECK(pthread_join(t, NULL) == 0);
	return stolen;
}

int main(void)
{
	/* No SA_RESTART: ThreadSanitizer runs a handler only once the call it
	 * came in leaves, and a restarted read() would not. */
	struct sigaction handler = { .sa_handler = handled_by_handler };
	sigset_t mask = set_of(SIGUSR2);
	int stolen;

	CHECK(pipe(handled_pipe()) == 0 && pipe(ready) == 0 && pipe(quit) == 0);
	CHECK(sigaction(SIGUSR2, &handler, NULL) == 0);
	block_only(&mask);
	fd = sigfd(&mask, SIGFD_SHARE);
	CHECK(fd >= 0);
	stolen = unblocked_rounds(round_with_new_thread, "SIGUSR2s sent while a new thread left it unblocked");
	CHECK(stolen_counted(stolen) == 0);
	CHECK(close(fd) == 0);
	close_pair(handled_pipe());
	close_pair(ready);
	close_pair(quit);
	return 0;
}
