/* SPDX-License-Identifier: MIT */
/* A creator with several threads: every thread blocks the signals, four of
 * them queue values to the process, and the main thread reads each value
 * exactly once, in order per sending thread. A sender keeps at most WINDOW
 * values unread: queued signals count against RLIMIT_SIGPENDING (1,914 in
 * the QEMU guest) until read, so a reader slowed by a busy host must not
 * turn into sigqueue()'s EAGAIN. */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>

#include "share_util.h"

#define THREADS 4
#define EACH 500
#define WINDOW 16

static sem_t unread_room[THREADS]; /* posted by the reader, one a value read */

static void *send_values(void *arg)
{
	int id = (int)(intptr_t)arg;

	for (int i = 0; i < EACH; i++) {
		while (sem_wait(&unread_room[id]) != 0)
			CHECK(errno == EINTR);
		CHECK(sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = id * EACH + i }) == 0);
	}
	return NULL;
}

int main(void)
{
	sigset_t mask = set_of(SIGRTMIN);
	pthread_t t[THREADS];
	int next[THREADS] = { 0 };
	int fd;

	block_only(&mask); /* inherited by every thread created below */
	fd = sigfd(&mask, SIGFD_SHARE);
	CHECK(fd >= 0);
	for (int i = 0; i < THREADS; i++)
		CHECK(sem_init(&unread_room[i], 0, WINDOW) == 0);
	for (int i = 0; i < THREADS; i++)
		CHECK(pthread_create(&t[i], NULL, send_values, (void *)(intptr_t)i) == 0);
	for (int n = 0; n < THREADS * EACH; n++) {
		struct sigfd_siginfo r = read_one(fd);
		int id = r.ssi_int / EACH;
		CHECK(r.ssi_signo == (uint32_t)SIGRTMIN && id >= 0 && id < THREADS);
		CHECK(r.ssi_int % EACH == next[id]);
		next[id]++;
		CHECK(sem_post(&unread_room[id]) == 0);
	}
	for (int i = 0; i < THREADS; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
	for (int i = 0; i < THREADS; i++)
		CHECK(sem_destroy(&unread_room[i]) == 0);
	CHECK(close(fd) == 0);
	return 0;
}
