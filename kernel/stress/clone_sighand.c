/* SPDX-License-Identifier: MIT */
/* Descriptors of two processes that share one sighand (CLONE_SIGHAND
 * without CLONE_THREAD: one siglock, two signal queues): a process P and
 * its clone S each create a descriptor and hand it over, each process's
 * queue is flooded, then S ends one of four ways: _exit() while P waits,
 * exec (de_thread() unshares the sighand), after P has gone first, or by
 * SIGKILL. The parent reads both descriptors to end of file. Usage:
 * clone_sighand [seconds] */
#include <sched.h>
#include <sys/syscall.h>

#include "stress.h"

enum { S_EXITS, S_EXECS, P_FIRST, S_KILLED, WAYS };

static sigset_t mask;
static int link_fd, go_fd, ready[2], way;

static int sibling(void *arg)
{
	char *args[] = { "/proc/self/exe", "--exec-done", NULL };

	(void)arg;
	send_fd(link_fd, stress_fd(&mask, SIGFD_NONBLOCK));
	put_byte(ready[1]);
	get_byte(go_fd); /* S_KILLED: never comes back */
	if (way == S_EXECS)
		execv(args[0], args);
	syscall(SYS_exit, 0);
	return 0;
}

static void process(int link, int go, int how)
{
	static char stack[256 * 1024] __attribute__((aligned(16)));
	int fd, status;
	pid_t s;

	link_fd = link;
	go_fd = go;
	way = how;

	/* The library's first call made here, not in the clone that shares
	 * this memory. */
	CHECK(close(stress_fd(&mask, 0)) == 0);
	CHECK(pipe(ready) == 0);
	s = clone(sibling, stack + sizeof stack, CLONE_VM | CLONE_SIGHAND | SIGCHLD, NULL);
	CHECK(s > 0);
	get_byte(ready[0]);
	fd = stress_fd(&mask, SIGFD_NONBLOCK);
	send_fd(link_fd, fd);
	CHECK(write(link_fd, &s, sizeof s) == (ssize_t)sizeof s);
	if (way == P_FIRST)
		_exit(0);
	CHECK(waitpid(s, &status, __WALL) == s);
	_exit(way == S_KILLED ? !WIFSIGNALED(status) : !(WIFEXITED(status) && !WEXITSTATUS(status)));
}

int main(int argc, char **argv)
{
	long rounds = 0, records = 0;
	int link[2];

	mask = stress_start(argc, argv, SIGRTMIN + 6, link);
	/* S outlives P in P_FIRST rounds: it is ours to reap then. */
	CHECK(prctl(PR_SET_CHILD_SUBREAPER, 1) == 0);
	for (; stress_running(); rounds++) {
		int way = (int)(rounds % WAYS), fd_s, fd_p, status;
		struct stress_creator p;
		pid_t s, flood_s, flood_p;

		stress_fork(&p, process, link[1], way);
		fd_s = recv_fd(link[0]);
		fd_p = recv_fd(link[0]);
		CHECK(read(link[0], &s, sizeof s) == (ssize_t)sizeof s);
		flood_s = stress_flood(s, SIGRTMIN + 6);
		flood_p = stress_flood(p.pid, SIGRTMIN + 6);
		stress_burn(5 + rounds % 3 * 5);
		if (way == P_FIRST) {
			status = stress_reap(p.pid, "P");
			CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
			records += stress_read_eof(fd_p, &mask, "clone_sighand (P)");
			put_byte(p.go[1]);
			records += stress_read_eof(fd_s, &mask, "clone_sighand (S)");
			status = stress_reap(s, "S");
			CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		} else {
			if (way == S_KILLED)
				CHECK(kill(s, SIGKILL) == 0);
			else
				put_byte(p.go[1]);
			records += stress_read_eof(fd_s, &mask, "clone_sighand (S)");
			records += stress_read_eof(fd_p, &mask, "clone_sighand (P)");
			status = stress_reap(p.pid, "P");
			CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		}
		stress_stop(flood_s);
		stress_stop(flood_p);
		CHECK(close(fd_s) == 0 && close(fd_p) == 0);
		close_pair(p.go);
	}
	close_pair(link);
	stress_done("clone_sighand", rounds, records);
	return 0;
}
