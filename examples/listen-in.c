/* SPDX-License-Identifier: MIT */
/* The 2003 story, end to end: "a process that does a sigfd(), forks, and the
 * child can then listen in on the specified signals of the parent".
 *
 * The parent makes a share fd and forks a listener. A third process sends
 * the parent five signals; the listener prints each, with its sender. Then
 * the parent execs, and the listener sees end of file: the signal queue it
 * was reading belonged to the old program image, which is gone. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sigfd.h>

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static const char *signal_name(unsigned sig, char *buf, size_t len)
{
	if (sig == SIGUSR1)
		return "SIGUSR1";
	if (sig == SIGUSR2)
		return "SIGUSR2";
	snprintf(buf, len, "SIGRTMIN+%d", (int)sig - SIGRTMIN);
	return buf;
}

static void listen_in(int fd, pid_t parent, int ack)
{
	struct sigfd_siginfo r;
	char name[16];
	ssize_t n;

	printf("listener %d: reading the signals of pid %d\n", (int)getpid(), (int)parent);
	fflush(stdout);
	while ((n = read(fd, &r, sizeof r)) == (ssize_t)sizeof r) {
		printf("listener %d: %-10s from pid %u%s", (int)getpid(), signal_name(r.ssi_signo, name, sizeof name), r.ssi_pid,
		       r.ssi_code == SI_QUEUE ? " by sigqueue, value " : " by kill\n");
		if (r.ssi_code == SI_QUEUE)
			printf("%d\n", r.ssi_int);
		fflush(stdout);
		if (write(ack, "a", 1) != 1)
			die("write");
	}
	if (n != 0)
		die("read");
	printf("listener %d: end of file: pid %d has exec'd, its old signal queue is gone\n", (int)getpid(),
	       (int)parent);
}

static void send_five(pid_t to)
{
	kill(to, SIGUSR1);
	for (int i = 1; i <= 3; i++)
		sigqueue(to, SIGRTMIN, (union sigval){ .sival_int = 100 * i });
	kill(to, SIGUSR2);
}

int main(int argc, char **argv)
{
	sigset_t mask;
	int fd, acks[2];
	pid_t parent = getpid(), listener, sender;
	char c;

	if (argc == 2 && strcmp(argv[1], "--new-image") == 0) {
		printf("parent %d: running a new program image now\n", (int)getpid());
		fflush(stdout);
		while (wait(NULL) > 0) /* the listener is still our child */
			;
		return 0;
	}
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGUSR2);
	sigaddset(&mask, SIGRTMIN);
	if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0)
		die("sigprocmask");
	fd = sigfd(&mask, SIGFD_SHARE | SIGFD_CLOEXEC);
	if (fd < 0)
		die("sigfd");
	printf("parent %d: made share fd %d, forking a listener\n", (int)parent, fd);
	fflush(stdout);
	if (pipe(acks) < 0)
		die("pipe");

	listener = fork();
	if (listener < 0)
		die("fork");
	if (listener == 0) {
		listen_in(fd, parent, acks[1]);
		return 0;
	}
	sender = fork();
	if (sender < 0)
		die("fork");
	if (sender == 0) {
		printf("sender %d: sending five signals to pid %d\n", (int)getpid(), (int)parent);
		fflush(stdout);
		send_five(parent);
		_exit(0);
	}
	waitpid(sender, NULL, 0);
	for (int i = 0; i < 5; i++) /* the listener has seen them all */
		if (read(acks[0], &c, 1) != 1)
			die("read");
	printf("parent %d: exec'ing\n", (int)parent);
	fflush(stdout);
	execl("/proc/self/exe", argv[0], "--new-image", (char *)NULL);
	die("execl");
}
