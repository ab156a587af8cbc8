/* SPDX-License-Identifier: MIT */
/* SIGCHLD through a sigfd: CLD_EXITED with the exit status and the child's
 * pid for a child that exits, CLD_KILLED with the signal for one that is
 * killed. The record does not reap: waitpid() still must. */
#include "check.h"

int main(void)
{
	sigset_t set = set_of(SIGCHLD);
	block_only(&set);
	int fd = sigfd(&set, test_mode());
	CHECK(fd >= 0);

	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0)
		_exit(7);
	struct sigfd_siginfo r = read_one(fd);
	CHECK(r.ssi_signo == SIGCHLD);
	CHECK(r.ssi_code == CLD_EXITED);
	CHECK(r.ssi_status == 7);
	CHECK(r.ssi_pid == (uint32_t)pid);
	CHECK(r.ssi_uid == (uint32_t)getuid());
	int status;
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 7);

	/* A child that waits on a pipe until we kill it. */
	int p[2];
	CHECK(pipe(p) == 0);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		char c;
		close(p[1]);
		if (read(p[0], &c, 1) < 0) /* checked: _FORTIFY_SOURCE warns otherwise */
			_exit(1);
		_exit(0);
	}
	/* p[1] stays open until the child is gone: end of file would let it
	 * exit before the SIGTERM. */
	CHECK(kill(pid, SIGTERM) == 0);
	r = read_one(fd);
	CHECK(r.ssi_signo == SIGCHLD);
	CHECK(r.ssi_code == CLD_KILLED);
	CHECK(r.ssi_status == SIGTERM);
	CHECK(r.ssi_pid == (uint32_t)pid);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	close_pair(p);
	CHECK(close(fd) == 0);
	return 0;
}
