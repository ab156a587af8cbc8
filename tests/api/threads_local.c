/* SPDX-License-Identifier: MIT */
/* Local mode with threads: a sigfd read in a thread reports the signals
 * pending for the whole process plus those directed at that thread, not
 * those directed at another thread. The signals are blocked before the
 * thread is created, so it inherits the mask: a thread with them unblocked
 * would take them itself. */
#include <pthread.h>

#include "check.h"

static int fd, go[2];

static void *reader(void *arg)
{
	(void)arg;
	get_byte(go[0]);
	/* Our own SIGUSR2 and the process's SIGUSR1: two records. */
	struct sigfd_siginfo r[4];
	ssize_t n = read(fd, r, sizeof r);
	CHECK(n == (ssize_t)(2 * sizeof r[0]));
	CHECK((r[0].ssi_signo == SIGUSR1 && r[1].ssi_signo == SIGUSR2) ||
	      (r[0].ssi_signo == SIGUSR2 && r[1].ssi_signo == SIGUSR1));
	/* kill() is SI_USER, pthread_kill() SI_TKILL. */
	for (int i = 0; i < 2; i++)
		CHECK(r[i].ssi_code == (r[i].ssi_signo == SIGUSR1 ? SI_USER : SI_TKILL));
	errno = 0;
	CHECK(read(fd, r, sizeof r) == -1 && errno == EAGAIN);
	return NULL;
}

int main(void)
{
	sigset_t set = set_of(SIGUSR1);
	sigaddset(&set, SIGUSR2);
	block_only(&set);
	fd = sigfd(&set, SIGFD_NONBLOCK);
	CHECK(fd >= 0);
	CHECK(pipe(go) == 0);
	pthread_t t;
	CHECK(pthread_create(&t, NULL, reader, NULL) == 0);

	/* Directed at the other thread: the main thread cannot see it. */
	CHECK(pthread_kill(t, SIGUSR2) == 0);
	CHECK(poll_events(fd, POLLIN, 0) == 0);
	struct sigfd_siginfo r;
	errno = 0;
	CHECK(read(fd, &r, sizeof r) == -1 && errno == EAGAIN);

	/* Directed at the process: visible from here, left for the thread. */
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(poll_events(fd, POLLIN, 0) == POLLIN);
	put_byte(go[1]);
	CHECK(pthread_join(t, NULL) == 0);

	CHECK(poll_events(fd, POLLIN, 0) == 0);
	CHECK(close(go[0]) == 0 && close(go[1]) == 0);
	CHECK(close(fd) == 0);
	return 0;
}
