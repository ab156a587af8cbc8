/* SPDX-License-Identifier: MIT */
/* endtime N Q: a creator process makes N /dev/sigfd descriptors, which a
 * child of its own keeps open, queues itself Q real-time signals (as root,
 * RLIMIT_SIGPENDING raised to fit) and exits: the module built with
 * instrument.diff logs how long its end held interrupts off. With N 0 the
 * kernel flushes the queue itself at release. With N 1 the descriptor
 * wants every signal; with more, 62 of them own one signal each and the
 * rest want all, so the walk meets every kind of descriptor. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../../kmod/sigfd_uapi.h"

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void creator(int n, int q, int hold)
{
	struct rlimit files = { 8192, 8192 }, pending = { q + 64, q + 64 };
	sigset_t all;
	int dev;
	char c;

	if (setrlimit(RLIMIT_NOFILE, &files) || setrlimit(RLIMIT_SIGPENDING, &pending))
		die("setrlimit");
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
	if ((dev = open("/dev/sigfd", O_RDONLY)) < 0)
		die("/dev/sigfd");
	for (int i = 0; i < n; i++) {
		struct sigfd_params p = { .size = sizeof p, .mask = ~0ull };

		if (i < 62 && n > 1)
			p.mask = 1ull << (i < 8 ? i : i + 2); /* skips KILL and STOP */
		if (ioctl(dev, SIGFD_IOC_CREATE, &p) < 0)
			die("SIGFD_IOC_CREATE");
	}
	for (int i = 0; i < q; i++)
		if (sigqueue(getpid(), SIGRTMIN + i % 16, (union sigval){ .sival_int = i }))
			die("sigqueue");
	if (fork() == 0) { /* holds the descriptors until the parent reaps us */
		if (read(hold, &c, 1) < 0)
			die("read");
		_exit(0);
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	int hold[2];
	pid_t pid;

	if (argc != 3)
		return 2;
	if (pipe(hold))
		die("pipe");
	if ((pid = fork()) == 0) {
		close(hold[1]);
		creator(atoi(argv[1]), atoi(argv[2]), hold[0]);
	}
	close(hold[0]);
	if (waitpid(pid, NULL, 0) != pid)
		die("waitpid");
	close(hold[1]);
	while (wait(NULL) > 0)
		;
	return 0;
}
