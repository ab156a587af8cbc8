/* SPDX-License-Identifier: MIT */
/* A share fd opened by another thread after exit() has run the library's
 * destructor: it still gets the creator's signals, and the forwarding
 * thread started for it is not left for exit to find finished and never
 * joined (ThreadSanitizer reports that as a thread leak). */
#include <pthread.h>

#include "share_util.h"

static int go[2] = { -1, -1 }, done[2] = { -1, -1 };

static void *open_late(void *unused)
{
	sigset_t usr1 = set_of(SIGUSR1);
	struct sigfd_siginfo r;
	int fd;

	(void)unused;
	get_byte(go[0]);
	fd = sigfd(&usr1, SIGFD_SHARE);
	CHECK(fd >= 0);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	r = read_one(fd);
	CHECK(r.ssi_signo == SIGUSR1 && r.ssi_pid == (uint32_t)getpid());
	CHECK(close(fd) == 0);
	WAIT_UNTIL(forwarders() == 0);
	put_byte(done[1]);
	return NULL;
}

/* Priority 101 runs after every destructor of default priority, the
 * library's among them: exit() is under way, and the helper's thread
 * starts, serves and stops before it goes on. */
__attribute__((destructor(101))) static void after_library_destructor(void)
{
	if (go[1] < 0)
		return;
	put_byte(go[1]);
	get_byte(done[0]);
}

int main(void)
{
	sigset_t usr1 = set_of(SIGUSR1);
	pid_t child;
	int status;

	block_only(&usr1);
	child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		pthread_t t;
		int keep = sigfd(&usr1, SIGFD_SHARE); /* a thread runs as exit() begins */

		CHECK(keep >= 0);
		CHECK(pipe(go) == 0 && pipe(done) == 0);
		CHECK(pthread_create(&t, NULL, open_late, NULL) == 0);
		CHECK(pthread_detach(t) == 0);
		exit(3);
	}
	CHECK(waitpid(child, &status, 0) == child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 3);
	return 0;
}
