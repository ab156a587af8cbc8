/* SPDX-License-Identifier: MIT */
/* A stop signal of a share fd's mask that the program leaves unblocked
 * stops it, as it would without the descriptor: 50 processes, each with a
 * share fd for SIGTSTP and SIGUSR1 but only SIGUSR1 blocked, stop on a
 * SIGTSTP; none reads it from its descriptor. Each runs in a process group
 * of its own whose parent is in the session: the kernel discards the
 * terminal stop signals in an orphaned group. */
#include "share_util.h"

/* ThreadSanitizer sleeps a second at the exit of a process with threads
 * (atexit_sleep_ms), as each of these is: fewer of them there. */
#define PROCESSES (UNDER_TSAN ? 10 : 50)

int main(void)
{
	sigset_t usr1 = set_of(SIGUSR1), mask = set_of(SIGTSTP);
	int stopped = 0, stolen = 0;

	if (under_valgrind()) {
		/* It runs signal delivery itself, every signal blocked in the
		 * kernel outside system calls: a SIGTSTP it takes neither
		 * stops the process nor reaches the descriptor. */
		puts("SKIPPED: under valgrind, which does not stop a process on SIGTSTP");
		return 77;
	}
	sigaddset(&mask, SIGUSR1);
	block_only(&usr1);
	for (int i = 0; i < PROCESSES; i++) {
		int ready[2], done[2], status;
		pid_t child;

		CHECK(pipe(ready) == 0 && pipe(done) == 0);
		child = fork();
		CHECK(child >= 0);
		if (child == 0) {
			struct pollfd p[2] = { { .events = POLLIN }, { .fd = done[0], .events = POLLIN } };
			struct sigfd_siginfo r;

			CHECK(setpgid(0, 0) == 0);
			p[0].fd = sigfd(&mask, SIGFD_SHARE | SIGFD_NONBLOCK);
			CHECK(p[0].fd >= 0);
			put_byte(ready[1]);
			for (;;) {
				while (poll(p, 2, -1) < 0)
					CHECK(errno == EINTR);
				/* A kernel backend's poll can see the SIGTSTP pending
				 * just before the kernel acts on it: nothing to read. */
				if (p[0].revents & POLLIN) {
					ssize_t n = read(p[0].fd, &r, sizeof r);

					if (n < 0 && errno == EAGAIN)
						continue;
					CHECK(n == (ssize_t)sizeof r);
					_exit(r.ssi_signo == SIGTSTP ? 3 : 4);
				}
				if (p[1].revents & POLLIN)
					_exit(0);
			}
		}
		get_byte(ready[0]);
		CHECK(kill(child, SIGTSTP) == 0);
		CHECK(waitpid(child, &status, WUNTRACED) == child);
		if (WIFSTOPPED(status)) {
			stopped++;
			CHECK(kill(child, SIGCONT) == 0);
			put_byte(done[1]);
			reap_ok(child);
		} else {
			CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 3);
			stolen++;
		}
		close_pair(ready);
		close_pair(done);
	}
	printf("%d of %d processes stopped on SIGTSTP, %d read it from the descriptor\n", stopped,
	       PROCESSES, stolen);
	CHECK(stopped == PROCESSES);
	return 0;
}
