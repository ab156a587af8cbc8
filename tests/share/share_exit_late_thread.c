/* SPDX-License-Identifier: MIT */
/* A share fd opened by another thread after exit() has run the library's
 * destructor, in a process that had one before and in one that had none:
 * it still gets the creator's signals, and the forwarding thread started
 * for it is not left for exit to find finished and never joined
 * (ThreadSanitizer reports that as a thread leak). */
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

/* Run as a fresh program (exec'ed), so that a process which has never
 * used the library, nor forked, is covered too. */
static void exit_with_late_opener(int used_before)
{
	sigset_t usr1 = set_of(SIGUSR1);
	pthread_t t;

	leak_check_off(); /* the pipes and the kept share fd go with exit() */
	if (used_before)
		CHECK(sigfd(&usr1, SIGFD_SHARE) >= 0); /* kept: a thread runs as exit() begins */
	CHECK(pipe(go) == 0 && pipe(done) == 0);
	CHECK(pthread_create(&t, NULL, open_late, NULL) == 0);
	CHECK(pthread_detach(t) == 0);
	exit(3);
}

static void run(const char *self, const char *how)
{
	pid_t child = fork();
	int status;

	CHECK(child >= 0);
	if (child == 0) {
		execl(self, self, how, (char *)NULL);
		_exit(127);
	}
	CHECK(waitpid(child, &status, 0) == child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 3);
}

int main(int argc, char **argv)
{
	sigset_t usr1 = set_of(SIGUSR1);

	if (argc == 2)
		exit_with_late_opener(strcmp(argv[1], "used") == 0);
	block_only(&usr1);
	run(argv[0], "used");
	run(argv[0], "unused");
	return 0;
}
