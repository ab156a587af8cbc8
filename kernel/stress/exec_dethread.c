/* SPDX-License-Identifier: MIT */
/* exec against descriptors and a flood: a process's leader and a second
 * thread each create a descriptor and hand it to the parent; then one of
 * them execs (the other dies in de_thread(); a non-leader's exec makes it
 * the leader) while a sender floods the process with an RT signal. The
 * parent polls both descriptors and reads each to end of file; the exec'd
 * image exits at once. Usage: exec_dethread [seconds] */
#include "stress.h"

static sigset_t mask;
static int link_fd, go_fd;

static void run_exec(void)
{
	char *args[] = { "/proc/self/exe", "--exec-done", NULL };

	execv(args[0], args);
	_exit(99);
}

static void *second(void *by_second)
{
	send_fd(link_fd, stress_fd(&mask, SIGFD_NONBLOCK));
	if (by_second) {
		get_byte(go_fd);
		run_exec();
	}
	for (;;)
		stress_burn(1);
	return NULL;
}

static void process(int link, int go, int by_second)
{
	pthread_t t;

	link_fd = link;
	go_fd = go;

	send_fd(link_fd, stress_fd(&mask, SIGFD_NONBLOCK));
	CHECK(pthread_create(&t, NULL, second, by_second ? &t : NULL) == 0);
	if (by_second) {
		for (;;)
			stress_burn(1);
	}
	get_byte(go_fd);
	run_exec();
}

int main(int argc, char **argv)
{
	long rounds = 0, records = 0;
	int link[2];

	mask = stress_start(argc, argv, SIGRTMIN + 3, link);
	for (; stress_running(); rounds++) {
		struct stress_creator p;
		int fds[2], status;
		pid_t sender;

		stress_fork(&p, process, link[1], rounds % 2);
		fds[0] = recv_fd(link[0]);
		fds[1] = recv_fd(link[0]);
		sender = stress_flood(p.pid, SIGRTMIN + 3);
		stress_burn(2 + rounds % 5 * 3);
		put_byte(p.go[1]);
		/* Each descriptor's creator is gone once the exec is through:
		 * both end, the exec'd image exits by itself. */
		for (int i = 0; i < 2; i++)
			records += stress_read_eof(fds[i], &mask, "exec_dethread");
		status = stress_reap(p.pid, "the exec'ing process");
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		stress_stop(sender);
		CHECK(close(fds[0]) == 0 && close(fds[1]) == 0);
		close_pair(p.go);
	}
	close_pair(link);
	stress_done("exec_dethread", rounds, records);
	return 0;
}
