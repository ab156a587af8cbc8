/* SPDX-License-Identifier: MIT */
/* fork() in one thread while another opens, changes and closes share fds:
 * no hang (the runner's time limit), and no child ever holds a writer of
 * ours or the library's end of the door: a writer in a child would keep the
 * parent's readers from seeing end of file. The children's own share fds
 * work. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/stat.h>

#include "share_util.h"

/* valgrind runs one thread at a time, so it meets few of the races, and 300
 * forks took it 24 s alone: it looks for memory errors, which 60 reach as
 * well. */
#define FORKS (under_valgrind() ? 60 : 300)

static atomic_bool stop;

static void *churn(void *unused)
{
	sigset_t usr1 = set_of(SIGUSR1), usr2 = set_of(SIGUSR2);

	(void)unused;
	while (!atomic_load(&stop)) {
		int fd = sigfd(&usr1, SIGFD_SHARE | SIGFD_CLOEXEC);
		CHECK(fd >= 0);
		CHECK(sigfd_setmask(fd, &usr2) == 0);
		CHECK(close(fd) == 0);
	}
	return NULL;
}

int main(void)
{
	sigset_t both = set_of(SIGUSR1);
	pthread_t t[2];

	sigaddset(&both, SIGUSR2);
	block_only(&both);
	for (int i = 0; i < 2; i++)
		CHECK(pthread_create(&t[i], NULL, churn, NULL) == 0);
	for (int i = 0; i < FORKS; i++) {
		pid_t child = fork();
		CHECK(child >= 0);
		if (child == 0) {
			CHECK(library_sockets(1) == 0);
			/* now and then, a share fd of its own (not under TSan
			 * or ASan: see check.h) */
			if (i % 10 == 0 && !UNDER_TSAN && !UNDER_ASAN) {
				int own = sigfd(&both, SIGFD_SHARE);
				CHECK(own >= 0);
				CHECK(kill(getpid(), SIGUSR2) == 0);
				CHECK(read_one(own).ssi_signo == SIGUSR2);
				exit(0); /* through the library's exit code */
			}
			_exit(0);
		}
		reap_ok(child);
	}
	atomic_store(&stop, true);
	for (int i = 0; i < 2; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
	return 0;
}
