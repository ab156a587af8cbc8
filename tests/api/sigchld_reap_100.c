/* SPDX-License-Identifier: MIT */
/* SIGCHLD coalesces: 100 children that exit at once may leave fewer
 * records than children, yet the loop of examples/reaper.c (on each record,
 * waitpid(-1, WNOHANG) until none is left) reaps every one: each pid once,
 * each status 0, no zombie left (waitpid then fails with ECHILD), and no
 * record left unread. The record count is printed, not asserted. */
#include "check.h"

#define N 100

int main(void)
{
	sigset_t set = set_of(SIGCHLD);
	pid_t kids[N];
	int gate[2], reaped = 0, records = 0, before = lowest_free_fd();
	char seen[N] = {0};

	block_only(&set);
	int fd = sigfd(&set, SIGFD_NONBLOCK | SIGFD_CLOEXEC);
	CHECK(fd >= 0);
	CHECK(pipe(gate) == 0);
	for (int i = 0; i < N; i++) {
		kids[i] = fork();
		CHECK(kids[i] >= 0);
		if (kids[i] == 0) {
			char c;
			close(gate[1]);
			_exit(read(gate[0], &c, 1) == 0 ? 0 : 1);
		}
	}
	CHECK(close(gate[0]) == 0 && close(gate[1]) == 0);
	while (reaped < N) {
		struct sigfd_siginfo r;
		CHECK(poll_events(fd, POLLIN, 30000) == POLLIN);
		while (read(fd, &r, sizeof r) == (ssize_t)sizeof r) {
			CHECK(r.ssi_signo == SIGCHLD && r.ssi_code == CLD_EXITED);
			records++;
		}
		CHECK(errno == EAGAIN);
		int status;
		pid_t pid;
		while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
			int k = 0;
			while (k < N && kids[k] != pid)
				k++;
			CHECK(k < N && !seen[k]);
			CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
			seen[k] = 1;
			reaped++;
		}
		CHECK(pid == 0 || (pid == -1 && errno == ECHILD));
	}
	errno = 0;
	CHECK(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD);
	/* A record may come after its child was reaped by an earlier loop. */
	struct sigfd_siginfo r;
	while (read(fd, &r, sizeof r) == (ssize_t)sizeof r)
		records++;
	CHECK(records >= 1 && records <= N);
	printf("%d children reaped from %d SIGCHLD records\n", reaped, records);
	CHECK(close(fd) == 0);
	CHECK(lowest_free_fd() == before);
	return 0;
}
