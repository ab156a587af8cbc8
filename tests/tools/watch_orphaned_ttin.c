/* SPDX-License-Identifier: MIT */
/* sigfd-watch -- COMMAND in an orphaned background process group of a
 * terminal's session ((sigfd-watch -- vi &) from a shell: the subshell is
 * gone). COMMAND reads the terminal and stops on SIGTTIN; sigfd-watch
 * stops itself the same way so that a shell would see its job stopped, but
 * the kernel drops a stop in an orphaned group. It used to continue COMMAND
 * at once, which read again and stopped again, for ever (about half a core
 * each). Now COMMAND stays stopped after one stop, and a line says so. */
#include <sys/prctl.h>
#include <termios.h>

#include "watch_pty.h"

/* COMMAND: its pid, then, once sigfd-watch's group is orphaned (a byte on
 * go), a read of the terminal from the background. */
static int probe(int report, int go)
{
	char c;
	pid_t me = getpid();
	int tty = open("/dev/tty", O_RDONLY | O_CLOEXEC);

	CHECK(tty >= 0);
	CHECK(write(report, &me, sizeof me) == (ssize_t)sizeof me && close(report) == 0);
	CHECK(read(go, &c, 1) == 1 && close(go) == 0);
	(void)!read(tty, &c, 1); /* SIGTTIN: stopped here */
	CHECK(close(tty) == 0);
	return 0;
}

/* The session: its leader keeps the terminal in its own (foreground)
 * group until done is closed; sigfd-watch starts in a group of its own,
 * whose leader then exits, orphaning it. */
static _Noreturn void session(const char *slave, const char *self, int report, int log, int done,
			       const int go[2])
{
	char watch[4096], fdarg[16], goarg[16];
	int status;

	lead_session_on(slave);
	watch_path(watch, sizeof watch);
	pid_t leader = fork();
	CHECK(leader >= 0);
	if (leader == 0) {
		CHECK(setpgid(0, 0) == 0);
		pid_t w = fork();
		CHECK(w >= 0);
		if (w == 0) {
			int r = dup(report);
			CHECK(r > 2 && dup2(log, 1) == 1 && dup2(log, 2) == 2);
			snprintf(fdarg, sizeof fdarg, "%d", r);
			snprintf(goarg, sizeof goarg, "%d", go[0]);
			execl(watch, watch, "-o-", "SIGCHLD", "--", self, "probe", fdarg, goarg,
			      (char *)NULL);
			_exit(127);
		}
		_exit(0);
	}
	/* Only COMMAND and sigfd-watch hold these: their end is seen. */
	CHECK(close(report) == 0 && close(log) == 0 && close(go[0]) == 0);
	CHECK(waitpid(leader, &status, 0) == leader);
	put_byte(go[1]); /* the leader is gone: sigfd-watch's group is orphaned */
	CHECK(close(go[1]) == 0);
	char c;
	(void)!read(done, &c, 1);
	_exit(0);
}

int main(int argc, char **argv)
{
	int report[2], log[2], done[2], go[2], stops = 0, said = 0;
	char buf[4096];
	size_t have = 0;
	pid_t command;

	if (argc == 4 && !strcmp(argv[1], "probe"))
		return probe(atoi(argv[2]), atoi(argv[3]));
	CHECK(getenv("BUILD") != NULL);
	/* sigfd-watch is reparented to us, outside its session: its group
	 * is orphaned whatever our ancestors are. */
	CHECK(prctl(PR_SET_CHILD_SUBREAPER, 1) == 0);
	const char *slave;
	int master = pty_open(&slave);
	if (master < 0)
		return 77;
	CHECK(pipe2(report, O_CLOEXEC) == 0 && pipe2(log, O_CLOEXEC) == 0 && pipe2(done, O_CLOEXEC) == 0);
	CHECK(pipe(go) == 0); /* its reading end goes to COMMAND */
	pid_t s = fork();
	CHECK(s >= 0);
	if (s == 0) {
		CHECK(close(done[1]) == 0); /* its end is seen when ours closes */
		session(slave, argv[0], report[1], log[1], done[0], go);
	}
	CHECK(close(report[1]) == 0 && close(log[1]) == 0 && close(done[0]) == 0);
	CHECK(close(go[0]) == 0 && close(go[1]) == 0);
	if (read(report[0], &command, sizeof command) != (ssize_t)sizeof command) {
		ssize_t n = read(log[0], buf, sizeof buf - 1);
		buf[n > 0 ? n : 0] = '\0';
		fprintf(stderr, "COMMAND did not start; sigfd-watch said:\n%s\n", buf);
		return 1;
	}

	/* The log until COMMAND's first stop and the line about it, then
	 * half a second more, in which a loop would stop it again many times. */
	for (int quiet_ms = 10000; poll_events(log[0], POLLIN, quiet_ms) & (POLLIN | POLLHUP);) {
		ssize_t n = read(log[0], buf + have, sizeof buf - 1 - have);
		if (n <= 0)
			break;
		have += (size_t)n;
		buf[have] = '\0';
		stops = 0;
		for (char *p = buf; (p = strstr(p, "child-stopped")); p++)
			stops++;
		said = strstr(buf, "it stays stopped until continued") != NULL;
		if (have == sizeof buf - 1)
			break;
		quiet_ms = stops && said ? 500 : 10000;
	}
	printf("COMMAND stopped %d time(s) in the log; the line said: %s\n", stops, said ? "yes" : "no");
	char state = task_state(command);
	if (stops != 1 || !said || state != 'T')
		fprintf(stderr, "COMMAND's state %c; the log:\n%s\n", state, buf);

	/* Judged once COMMAND is killed (a failure would leave the two
	 * looping): sigfd-watch ends with its status; both reaped. */
	CHECK(kill(command, SIGKILL) == 0);
	CHECK(close(done[1]) == 0);
	int status, watch_status = -1;
	for (pid_t w; (w = waitpid(-1, &status, 0)) > 0;)
		if (w != s)
			watch_status = status;
	CHECK(stops == 1 && said && state == 'T');
	CHECK(WIFEXITED(watch_status) && WEXITSTATUS(watch_status) == 128 + SIGKILL);
	CHECK(close(report[0]) == 0 && close(log[0]) == 0 && close(master) == 0);
	return 0;
}
