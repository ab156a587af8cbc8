/* SPDX-License-Identifier: MIT */
/* Local mode across fork() and exec: a sigfd reports the signals of the
 * process that reads it. A forked child reading the inherited fd does not
 * see its parent's pending signal (and does not take it), only its own.
 * Across execve() the blocked mask and a sigfd opened without SIGFD_CLOEXEC
 * survive and the new image reads its signals through it; one opened with
 * SIGFD_CLOEXEC is closed. The exec'd image is this same program, run with
 * "exec-child". (Signals pending at execve() also stay pending, but valgrind
 * discards them at execve, so that is not checked here.) */
#include <fcntl.h>

#include "check.h"

static int after_exec(int fd, int cloexec_fd)
{
	sigset_t now;
	CHECK(sigprocmask(SIG_BLOCK, NULL, &now) == 0);
	CHECK(sigismember(&now, SIGUSR1) == 1);
	errno = 0;
	CHECK(fcntl(cloexec_fd, F_GETFD) == -1 && errno == EBADF);
	CHECK(fcntl(fd, F_GETFD) == 0);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	struct sigfd_siginfo r = read_one(fd);
	CHECK(r.ssi_signo == SIGUSR1);
	CHECK(r.ssi_pid == (uint32_t)getpid());
	CHECK(close(fd) == 0);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "exec-child") == 0)
		return after_exec(atoi(argv[2]), atoi(argv[3]));

	sigset_t set = set_of(SIGUSR1);
	block_only(&set);
	int fd = sigfd(&set, 0);
	int cfd = sigfd(&set, SIGFD_CLOEXEC);
	CHECK(fd >= 0 && cfd >= 0);

	/* Pending in the parent only: fork() gives the child no pending signals. */
	CHECK(kill(getpid(), SIGUSR1) == 0);
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		CHECK(poll_events(fd, POLLIN, 0) == 0);
		CHECK(kill(getpid(), SIGUSR1) == 0);
		struct sigfd_siginfo r = read_one(fd);
		CHECK(r.ssi_signo == SIGUSR1 && r.ssi_pid == (uint32_t)getpid());
		CHECK(poll_events(fd, POLLIN, 0) == 0);
		_exit(0);
	}
	reap_ok(pid);
	/* The parent's signal was left for the parent. */
	struct sigfd_siginfo r = read_one(fd);
	CHECK(r.ssi_signo == SIGUSR1 && r.ssi_pid == (uint32_t)getpid());

	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		char a[16], b[16];
		snprintf(a, sizeof a, "%d", fd);
		snprintf(b, sizeof b, "%d", cfd);
		execl(argv[0], argv[0], "exec-child", a, b, (char *)NULL);
		perror("execl");
		_exit(127);
	}
	reap_ok(pid);
	CHECK(poll_events(fd, POLLIN, 0) == 0);
	CHECK(close(fd) == 0 && close(cfd) == 0);
	return 0;
}
