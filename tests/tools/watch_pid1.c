/* SPDX-License-Identifier: MIT */
/* sigfd-watch -- COMMAND as a container's first process: pid 1 of a new
 * pid namespace (no subreaper needed there). An orphaned grandchild of
 * COMMAND comes to it, and once the line after its SIGCHLD is printed it
 * has been reaped: COMMAND's kill(pid, 0) then fails with ESRCH (a zombie
 * would still answer). Signals from outside the namespace reach COMMAND
 * through it. Needs CAP_SYS_ADMIN for the namespace: SKIPPED without. */
#include <fcntl.h>
#include <sched.h>

#include "check.h"

static void line_of(FILE *f, char *line, size_t size, const char *what)
{
	if (!fgets(line, (int)size, f)) {
		fprintf(stderr, "no %s line\n", what);
		exit(1);
	}
}

/* COMMAND: an orphan, then on SIGRTMIN whether it is gone, on SIGHUP exit 9. */
static int probe(int fd)
{
	sigset_t sigs = set_of(SIGHUP);
	int p[2], q[2], sig;
	char msg[64];

	sigaddset(&sigs, SIGRTMIN);
	CHECK(sigprocmask(SIG_BLOCK, &sigs, NULL) == 0);
	CHECK(pipe(p) == 0 && pipe(q) == 0);
	pid_t middle = fork();
	CHECK(middle >= 0);
	if (middle == 0) {
		pid_t g = fork();
		CHECK(g >= 0);
		if (g == 0) { /* ends when middle has gone: EOF */
			char c;
			close(p[1]);
			_exit(read(p[0], &c, 1) == 0 ? 0 : 1);
		}
		_exit(write(q[1], &g, sizeof g) == sizeof g ? 0 : 1);
	}
	pid_t g;
	CHECK(close(p[1]) == 0 && close(q[1]) == 0);
	CHECK(read(q[0], &g, sizeof g) == sizeof g && close(q[0]) == 0);
	reap_ok(middle);
	int n = snprintf(msg, sizeof msg, "orphan %d\n", (int)g);
	CHECK(write(fd, msg, (size_t)n) == n);
	for (;;) {
		CHECK(sigwait(&sigs, &sig) == 0);
		if (sig == SIGHUP)
			return 9;
		errno = 0;
		n = snprintf(msg, sizeof msg, "%s\n", kill(g, 0) == -1 && errno == ESRCH ? "gone" : "there");
		CHECK(write(fd, msg, (size_t)n) == n);
	}
}

int main(int argc, char **argv)
{
	char watch[4096], fdarg[16], line[512];
	int out[2], err[2], rep[2], status;
	const char *build = getenv("BUILD");

	if (argc == 3 && !strcmp(argv[1], "probe")) {
		leak_check_off();
		return probe(atoi(argv[2]));
	}
	CHECK(build != NULL);
	int before = dup(0);
	CHECK(before >= 0 && close(before) == 0);
	snprintf(watch, sizeof watch, "%s/bin/sigfd-watch", build);
	/* The namespace is made in a process of its own: the test's own exit
	 * (a sanitizer's leak check forks) needs a live pid namespace. */
	int info[2];
	CHECK(pipe2(out, O_CLOEXEC) == 0 && pipe2(err, O_CLOEXEC) == 0 && pipe2(rep, O_CLOEXEC) == 0 &&
	      pipe2(info, O_CLOEXEC) == 0);
	pid_t launcher = fork();
	CHECK(launcher >= 0);
	if (launcher == 0) {
		int answer[2] = {0, 0};
		if (unshare(CLONE_NEWPID) < 0) {
			answer[1] = errno;
			_exit(write(info[1], answer, sizeof answer) == sizeof answer ? 0 : 1);
		}
		pid_t c = fork();
		if (c == 0) {
			CHECK(getpid() == 1);
			CHECK(dup2(out[1], 1) == 1 && dup2(err[1], 2) == 2);
			int w = dup(rep[1]);
			CHECK(w > 2);
			snprintf(fdarg, sizeof fdarg, "%d", w);
			execl(watch, watch, "-o-", "--", argv[0], "probe", fdarg, (char *)NULL);
			_exit(127);
		}
		answer[0] = c;
		answer[1] = c < 0 ? errno : 0;
		close(out[1]);
		close(err[1]);
		close(rep[1]);
		if (write(info[1], answer, sizeof answer) != sizeof answer || c < 0)
			_exit(1);
		_exit(waitpid(c, &status, 0) == c && WIFEXITED(status) ? WEXITSTATUS(status) : 1);
	}
	int answer[2];
	CHECK(close(info[1]) == 0 && read(info[0], answer, sizeof answer) == sizeof answer);
	CHECK(close(info[0]) == 0);
	if (!answer[0]) {
		reap_ok(launcher);
		printf("no new pid namespace: %s\n", strerror(answer[1]));
		return 77;
	}
	CHECK(answer[0] > 0);
	pid_t pid = answer[0];
	CHECK(close(out[1]) == 0 && close(err[1]) == 0 && close(rep[1]) == 0);
	FILE *fout = fdopen(out[0], "r"), *ferr = fdopen(err[0], "r"), *frep = fdopen(rep[0], "r");
	CHECK(fout && ferr && frep);
	line_of(ferr, line, sizeof line, "watching");
	CHECK(strncmp(line, "sigfd-watch: watching pid 1 for ", 32) == 0);
	line_of(ferr, line, sizeof line, "running");
	/* COMMAND is the first process sigfd-watch starts: pid 2, unless a
	 * sanitizer's runtime started one before it. */
	int command = 0;
	CHECK(sscanf(line, "sigfd-watch: running pid %d:", &command) == 1 && command >= 2);

	int g = 0;
	line_of(frep, line, sizeof line, "orphan");
	CHECK(sscanf(line, "orphan %d", &g) == 1 && g > command);
	char want[64];
	snprintf(want, sizeof want, " pid=%d ", g);
	/* The middle process is COMMAND's child: only g's SIGCHLD comes here. */
	line_of(fout, line, sizeof line, "orphan's SIGCHLD");
	CHECK(strstr(line, " SIGCHLD child-exited ") && strstr(line, want));
	CHECK(sigqueue(pid, SIGRTMIN, int_val(1)) == 0);
	line_of(fout, line, sizeof line, "SIGRTMIN");
	CHECK(strstr(line, " SIGRTMIN sigqueue "));
	line_of(frep, line, sizeof line, "gone");
	CHECK(strcmp(line, "gone\n") == 0);
	CHECK(kill(pid, SIGHUP) == 0);
	line_of(fout, line, sizeof line, "SIGHUP");
	CHECK(strstr(line, " SIGHUP kill")); /* the sender is outside: no pid */
	line_of(fout, line, sizeof line, "COMMAND's SIGCHLD");
	snprintf(want, sizeof want, " SIGCHLD child-exited pid=%d ", command);
	CHECK(strstr(line, want) && strstr(line, "status=9"));
	CHECK(waitpid(launcher, &status, 0) == launcher && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 9);
	CHECK(fgets(line, sizeof line, fout) == NULL && fgets(line, sizeof line, ferr) == NULL &&
	      fgets(line, sizeof line, frep) == NULL);
	fclose(fout);
	fclose(ferr);
	fclose(frep);
	int after = dup(0);
	CHECK(after == before && close(after) == 0); /* no descriptor leaked */
	return 0;
}
