/* SPDX-License-Identifier: MIT */
/* sigfd-watch -- COMMAND started in the background of a terminal as pid 1
 * of a PID namespace (unshare -fp sigfd-watch ... &): the terminal stays
 * with the foreground group, the shell's. In the namespace tcgetpgrp()
 * and getpgrp() both read 0 (neither group is visible there), and 0 == 0
 * was taken for being in the foreground: sigfd-watch handed the terminal
 * to COMMAND, and the interactive shell lost it and exited. Needs root
 * (CLONE_NEWPID). */
#include <sched.h>
#include <termios.h>

#include "watch_pty.h"

/* The session leader: the terminal's foreground group; sigfd-watch, pid 1
 * of a new namespace, in a background group of the session. */
static _Noreturn void session(const char *slave, int rep)
{
	char watch[4096], msg[32];
	int status;

	lead_session_on(slave);
	watch_path(watch, sizeof watch);
	pid_t job = fork();
	CHECK(job >= 0);
	if (job == 0) {
		CHECK(setpgid(0, 0) == 0); /* a background job */
		CHECK(unshare(CLONE_NEWPID) == 0);
		pid_t init = fork();
		CHECK(init >= 0);
		if (init == 0) {
			execl(watch, watch, "-q", "--", "true", (char *)NULL);
			_exit(127);
		}
		CHECK(waitpid(init, &status, 0) == init);
		_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
	}
	CHECK(waitpid(job, &status, 0) == job);
	snprintf(msg, sizeof msg, "kept %d %d\n", tcgetpgrp(0) == getpgrp(),
		 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	_exit(write(rep, msg, strlen(msg)) == (ssize_t)strlen(msg) ? 0 : 1);
}

int main(void)
{
	char line[64];
	int rep[2];

	CHECK(getenv("BUILD") != NULL);
	if (geteuid() != 0) {
		puts("SKIPPED: needs root, for a PID namespace");
		return 77;
	}
	const char *slave;
	int master = pty_open(&slave);
	if (master < 0)
		return 77;
	CHECK(pipe2(rep, O_CLOEXEC) == 0);
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0)
		session(slave, rep[1]);
	CHECK(close(rep[1]) == 0);
	ssize_t n = read(rep[0], line, sizeof line - 1);
	CHECK(n > 0);
	line[n] = '\0';
	if (strcmp(line, "kept 1 0\n") != 0)
		fprintf(stderr, "the terminal's foreground after sigfd-watch, and its status: %s", line);
	CHECK(strcmp(line, "kept 1 0\n") == 0);
	reap_ok(pid);
	CHECK(close(rep[0]) == 0 && close(master) == 0);
	return 0;
}
