/* SPDX-License-Identifier: MIT */
/* Bound to the creating thread: the descriptor reports the creator
 * thread's own signals (tgkill) and its process's, not those directed at
 * other threads; any holder reads them, a forked child included; another
 * thread of the process may change the mask; when the creator thread exits
 * the descriptor reads end of file although the process lives on. */
#include <pthread.h>
#include <sys/syscall.h>

#include "kmod_util.h"

static int fd = -1, quit[2];
static pid_t creator_tid;

static void *creator(void *arg)
{
	sigset_t *mask = arg;
	char c;

	creator_tid = (pid_t)syscall(SYS_gettid);
	fd = sigfd(mask, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(read(quit[0], &c, 1) == 1);
	return NULL;
}

static int tkill(pid_t tid, int sig)
{
	return (int)syscall(SYS_tgkill, getpid(), tid, sig);
}

int main(void)
{
	sigset_t mask, usr1 = set_of(SIGUSR1);
	struct sigfd_siginfo r;
	siginfo_t si;
	pthread_t t;
	pid_t child;

	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGUSR2);
	block_only(&mask); /* inherited by the creator thread */
	CHECK(pipe(quit) == 0);
	CHECK(pthread_create(&t, NULL, creator, &mask) == 0);
	WAIT_UNTIL(fd >= 0);
	assert_kernel_fd(fd);

	/* Directed at the creator thread: ours to read, from this thread. */
	CHECK(tkill(creator_tid, SIGUSR1) == 0);
	r = read_one(fd);
	CHECK(r.ssi_signo == SIGUSR1 && r.ssi_code == SI_TKILL);

	/* Directed at this (main) thread: not the creator's, left alone. */
	CHECK(tkill((pid_t)syscall(SYS_gettid), SIGUSR1) == 0);
	CHECK(read(fd, &r, sizeof r) == -1 && errno == EAGAIN);
	CHECK(sigwaitinfo(&usr1, &si) == SIGUSR1); /* glibc folds SI_TKILL into SI_USER */

	/* Directed at the process: the creator's process, so ours. */
	CHECK(kill(getpid(), SIGUSR2) == 0);
	r = read_one(fd);
	CHECK(r.ssi_signo == SIGUSR2 && r.ssi_code == SI_USER);

	/* A forked child reads the creator thread's signals too. */
	child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		CHECK(poll(&p, 1, 10000) == 1);
		CHECK(read_one(fd).ssi_signo == SIGUSR1);
		_exit(0);
	}
	CHECK(tkill(creator_tid, SIGUSR1) == 0);
	reap_ok(child);

	/* Another thread of the creator's process may change the mask. */
	CHECK(sigfd_setmask(fd, &usr1) == 0);
	CHECK(kill(getpid(), SIGUSR2) == 0);
	CHECK(read(fd, &r, sizeof r) == -1 && errno == EAGAIN);
	CHECK(sigwaitinfo(&mask, &si) == SIGUSR2);

	/* The creator thread ends: end of file, though this process lives. */
	CHECK(write(quit[1], "q", 1) == 1);
	CHECK(pthread_join(t, NULL) == 0);
	/* pthread_join() may return before the thread's exit probe has run:
	 * the end of file, not the join, says it has. */
	struct pollfd p = { .fd = fd, .events = POLLIN };
	CHECK(poll(&p, 1, 5000) == 1 && p.revents == (POLLIN | POLLHUP));
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(poll(&p, 1, 0) == 1 && p.revents == (POLLIN | POLLHUP));
	CHECK(read(fd, &r, sizeof r) == 0);
	CHECK(pending_has(SIGUSR1)); /* not taken: it stays with the process */
	errno = 0;
	CHECK(sigfd_setmask(fd, &mask) == -1 && errno == EPERM);
	CHECK(close(fd) == 0);
	close_pair(quit);
	return 0;
}
