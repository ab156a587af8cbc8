/* SPDX-License-Identifier: MIT */
/* Fork safety in the creator: a forked child's own signals never reach the
 * parent's share fd, the child can make share fds of its own, and a child
 * that execs with the fd inherited (no CLOEXEC) still reads the parent's
 * signals. */
#include <fcntl.h>

#include "share_util.h"

static int exec_reader(const char *fdstr, const char *want)
{
	struct sigfd_siginfo r = read_one(atoi(fdstr));
	CHECK(r.ssi_signo == SIGUSR2);
	CHECK(r.ssi_int == atoi(want));
	return 0;
}

int main(int argc, char **argv)
{
	sigset_t mask;
	int fd, go[2];
	pid_t child;

	if (UNDER_TSAN) {
		puts("SKIPPED: ThreadSanitizer aborts when a forked child starts a thread while its parent had one (see tests/check.h)");
		return 77;
	}
	if (argc == 4 && strcmp(argv[1], "reader") == 0)
		return exec_reader(argv[2], argv[3]);
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGUSR2);
	block_only(&mask);
	fd = sigfd(&mask, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(fd >= 0);
	CHECK(pipe(go) == 0);

	/* A child with its own share fd and its own signals. */
	child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		int own = sigfd(&mask, SIGFD_SHARE);
		CHECK(own >= 0);
		CHECK(sigqueue(getpid(), SIGUSR1, (union sigval){ .sival_int = 11 }) == 0);
		struct sigfd_siginfo r = read_one(own);
		CHECK(r.ssi_signo == SIGUSR1 && r.ssi_int == 11 && r.ssi_pid == (uint32_t)getpid());
		CHECK(write(go[1], "c", 1) == 1);
		exit(0); /* not _exit: the library ends its thread at exit */
	}
	char c;
	CHECK(read(go[0], &c, 1) == 1);
	reap_ok(child);
	struct sigfd_siginfo r;
	CHECK(read(fd, &r, sizeof r) == -1 && errno == EAGAIN); /* nothing leaked */

	/* A child that execs, holding the inherited fd, reads our signal. */
	char fdstr[16], want[16];
	snprintf(fdstr, sizeof fdstr, "%d", fd);
	snprintf(want, sizeof want, "%d", 22);
	child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		int flags = fcntl(fd, F_GETFL);
		CHECK(fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0); /* the description is shared: the parent only closes it from here */
		execl(argv[0], argv[0], "reader", fdstr, want, (char *)NULL);
		_exit(127);
	}
	CHECK(sigqueue(getpid(), SIGUSR2, (union sigval){ .sival_int = 22 }) == 0);
	reap_ok(child);
	CHECK(!pending_has(SIGUSR2));
	CHECK(close(fd) == 0);
	close_pair(go);
	return 0;
}
