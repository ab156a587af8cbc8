/* SPDX-License-Identifier: MIT */
/* The example from Linus Torvalds' 2003 sigfd() proposal, made real: block
 * every signal, take them all through one descriptor, and print each
 * signal with its sender. Stops after SIGTERM or SIGINT. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sigfd.h>

int main(void)
{
	sigset_t all;
	struct sigfd_siginfo si;

	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	int fd = sigfd(&all, 0);
	if (fd < 0) {
		perror("sigfd");
		return 1;
	}
	/* Line-buffered even into a pipe, so whoever drives us sees each
	 * line as soon as it is printed. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("sigfd returns %d\n", fd);
	for (;;) {
		ssize_t len = read(fd, &si, sizeof si);
		if (len != (ssize_t)sizeof si) {
			perror("read");
			return 1;
		}
		printf("signal %u (%s) from pid %u uid %u\n", si.ssi_signo, strsignal(si.ssi_signo),
		       si.ssi_pid, si.ssi_uid);
		if (si.ssi_signo == SIGTERM || si.ssi_signo == SIGINT)
			break;
	}
	close(fd);
	return 0;
}
