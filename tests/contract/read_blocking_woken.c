/* SPDX-License-Identifier: MIT */
/* A blocking read() with nothing pending sleeps until another process sends
 * a signal in the mask, then returns that signal's record. The child waits
 * until the parent is asleep (state S in /proc: the only place it can sleep
 * is the read) before it sends, so the read really was blocked; if that
 * state is never seen the child sends anyway and the test still checks the
 * record. A signal outside the mask does not end the read. */
#include <fcntl.h>
#include <sched.h>
#include <time.h>

#include "check.h"

static void wait_until_sleeping(pid_t ppid)
{
	struct timespec start, now;
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		if (task_state(ppid) == 'S')
			return;
		sched_yield();
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec - start.tv_sec < 20);
}

int main(void)
{
	sigset_t set = set_of(SIGUSR1);
	sigaddset(&set, SIGUSR2);
	block_only(&set);
	sigset_t usr1 = set_of(SIGUSR1);
	int fd = sigfd(&usr1, test_mode());
	CHECK(fd >= 0);
	int go[2];
	CHECK(pipe(go) == 0);

	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		pid_t ppid = getppid();
		get_byte(go[0]);
		wait_until_sleeping(ppid);
		/* Not in the fd's mask: must not wake the reader with anything. */
		CHECK(kill(ppid, SIGUSR2) == 0);
		wait_until_sleeping(ppid);
		CHECK(kill(ppid, SIGUSR1) == 0);
		_exit(0);
	}
	put_byte(go[1]);
	struct sigfd_siginfo r = read_one(fd);
	CHECK(r.ssi_signo == SIGUSR1);
	CHECK(r.ssi_code == SI_USER);
	CHECK(r.ssi_pid == (uint32_t)pid);
	reap_ok(pid);

	sigset_t pending;
	CHECK(sigpending(&pending) == 0);
	CHECK(sigismember(&pending, SIGUSR2) == 1);
	CHECK(sigismember(&pending, SIGUSR1) == 0);
	CHECK(close(go[0]) == 0 && close(go[1]) == 0);
	CHECK(close(fd) == 0);
	return 0;
}
