/* SPDX-License-Identifier: MIT */
/* sigfd-watch -- COMMAND in the foreground of a terminal (a pseudo-terminal
 * here, whose session this test makes): COMMAND leads its own process
 * group and that group is the terminal's foreground group, so Ctrl-C goes
 * straight to COMMAND (and is not in sigfd-watch's log); once COMMAND has
 * ended the terminal's foreground group is sigfd-watch's again. The same
 * with standard input not the terminal (`git log | sigfd-watch -- less`):
 * the terminal is the controlling one, not fd 0's. Then COMMAND was left
 * in a background group: stopped by SIGTTIN when it read /dev/tty, and
 * Ctrl-C reached sigfd-watch alone. */
#include <termios.h>

#include "watch_pty.h"

static int say(int fd, const char *s)
{
	size_t n = strlen(s);
	return write(fd, s, n) == (ssize_t)n ? 0 : 1;
}

/* COMMAND: is it the terminal's foreground group, and leader of its own? */
static int probe(int fd)
{
	sigset_t ints = set_of(SIGINT);
	siginfo_t si;
	char msg[64];

	int tty = open("/dev/tty", O_RDWR | O_CLOEXEC);

	CHECK(tty >= 0);
	CHECK(sigprocmask(SIG_BLOCK, &ints, NULL) == 0);
	snprintf(msg, sizeof msg, "fg %d %d\n", tcgetpgrp(tty) == getpgrp(), getpgrp() == getpid());
	CHECK(close(tty) == 0);
	CHECK(say(fd, msg) == 0);
	CHECK(sigwaitinfo(&ints, &si) == SIGINT);
	snprintf(msg, sizeof msg, "int %d\n", si.si_code == SI_KERNEL);
	return say(fd, msg);
}

/* The session leader: the terminal, then sigfd-watch in the foreground,
 * its standard input the terminal or not. */
static _Noreturn void session(const char *slave, const char *self, int rep, int out, int stdin_tty)
{
	char watch[4096], fdarg[16];
	int status;

	lead_session_on(slave);
	if (!stdin_tty) {
		int null = open("/dev/null", O_RDONLY), t;

		CHECK(null >= 0);
		t = fcntl(0, F_DUPFD_CLOEXEC, 3);
		CHECK(t >= 0 && dup2(null, 0) == 0 && close(null) == 0 && dup2(t, 2) == 2);
		CHECK(close(t) == 0); /* the terminal: fd 2, for the checks below */
	}
	int tty = stdin_tty ? 0 : 2;
	watch_path(watch, sizeof watch);
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		int w = dup(rep);
		CHECK(w > 2 && dup2(out, 1) == 1);
		snprintf(fdarg, sizeof fdarg, "%d", w);
		execl(watch, watch, "-o-", "--", self, "probe", fdarg, (char *)NULL);
		_exit(127);
	}
	CHECK(waitpid(pid, &status, 0) == pid);
	char msg[32];
	snprintf(msg, sizeof msg, "back %d\n", tcgetpgrp(tty) == getpgrp());
	_exit(say(rep, msg) || !WIFEXITED(status) ? 1 : WEXITSTATUS(status));
}

static void line_of(FILE *f, char *line, size_t size, const char *what)
{
	if (!fgets(line, (int)size, f)) {
		fprintf(stderr, "no %s line\n", what);
		exit(1);
	}
}

static void run(const char *self, int stdin_tty)
{
	char line[512];
	int rep[2], out[2];

	const char *slave;
	int master = pty_open(&slave);
	if (master < 0)
		exit(77);
	CHECK(pipe2(rep, O_CLOEXEC) == 0 && pipe2(out, O_CLOEXEC) == 0);
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0)
		session(slave, self, rep[1], out[1], stdin_tty);
	CHECK(close(rep[1]) == 0 && close(out[1]) == 0);
	FILE *frep = fdopen(rep[0], "r"), *fout = fdopen(out[0], "r");
	CHECK(frep && fout);

	line_of(frep, line, sizeof line, "fg");
	if (strcmp(line, "fg 1 1\n") != 0)
		fprintf(stderr, "standard input %s: COMMAND says %s", stdin_tty ? "the terminal" : "/dev/null",
			line);
	CHECK(strcmp(line, "fg 1 1\n") == 0);
	CHECK(write(master, "\003", 1) == 1); /* Ctrl-C */
	line_of(frep, line, sizeof line, "int");
	CHECK(strcmp(line, "int 1\n") == 0);
	line_of(frep, line, sizeof line, "back");
	CHECK(strcmp(line, "back 1\n") == 0);
	reap_ok(pid);
	/* sigfd-watch saw COMMAND end, and no SIGINT. */
	line_of(fout, line, sizeof line, "SIGCHLD");
	CHECK(strstr(line, " SIGCHLD child-exited ") && strstr(line, "status=0"));
	CHECK(fgets(line, sizeof line, fout) == NULL);
	fclose(frep);
	fclose(fout);
	CHECK(close(master) == 0);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "probe"))
		return probe(atoi(argv[2]));
	CHECK(getenv("BUILD") != NULL);
	int before = dup(0);
	CHECK(before >= 0 && close(before) == 0);
	run(argv[0], 1);
	run(argv[0], 0);
	int after = dup(0);
	CHECK(after == before && close(after) == 0); /* no descriptor leaked */
	return 0;
}
