/* SPDX-License-Identifier: MIT */
/* A non-leader's exec under a flood, without descriptors: the kernel's
 * own race that exec_dethread ran into. A process's second thread execs
 * (de_thread() kills the leader and makes the thread the leader) while a
 * sender floods the process with an RT signal that every thread blocks.
 * On 6.7 and later without the series' patch 1 a signal that comes
 * between de_thread()'s leader switch and its release_task() of the old
 * leader makes complete_signal() walk the threads for ever with the
 * siglock held and interrupts off, and the guest stops dead (no report:
 * every CPU ends up spinning with interrupts off). The exec'd image exits
 * at once. Usage: exec_flood [seconds] */
#include "stress.h"

static int go_fd;

static void *second(void *unused)
{
	char *args[] = { "/proc/self/exe", "--exec-done", NULL };

	(void)unused;
	get_byte(go_fd);
	execv(args[0], args);
	_exit(99);
}

static void process(int link_fd, int go, int unused)
{
	pthread_t t;

	(void)link_fd;
	(void)unused;
	go_fd = go;
	CHECK(pthread_create(&t, NULL, second, NULL) == 0);
	for (;;)
		stress_burn(1);
}

int main(int argc, char **argv)
{
	long rounds = 0;
	int link[2];

	stress_start(argc, argv, SIGRTMIN + 3, link);
	for (; stress_running(); rounds++) {
		struct stress_creator p;
		int status;
		pid_t sender;

		stress_fork(&p, process, link[1], 0);
		sender = stress_flood(p.pid, SIGRTMIN + 3);
		stress_burn(2 + rounds % 5 * 3);
		put_byte(p.go[1]);
		status = stress_reap(p.pid, "the exec'ing process");
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		stress_stop(sender);
		close_pair(p.go);
	}
	close_pair(link);
	stress_done("exec_flood", rounds, 0);
	return 0;
}
