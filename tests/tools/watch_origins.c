/* SPDX-License-Identifier: MIT */
/* sigfd-watch end to end for two origins a shell cannot produce: a signal
 * sent with tgkill(2) is "tkill" with the sender's pid, and SIGALRM from an
 * interval timer is "kernel" with no sender. The timer is set just before
 * exec (interval timers and blocked, pending signals survive it), so its
 * signal waits for sigfd-watch wherever it lands. That last step runs in a
 * fresh exec of this program (--timer-then-exec), never under valgrind,
 * which would take the signal into its own bookkeeping and lose it at exec. */
#include <sys/syscall.h>
#include <sys/time.h>

#include "check.h"

/* The next line of f, or the test fails. */
static void next_line(FILE *f, char *line, size_t size, const char *what)
{
	if (!fgets(line, (int)size, f)) {
		fprintf(stderr, "sigfd-watch printed no %s\n", what);
		exit(1);
	}
}

/* --timer-then-exec PROGRAM ARGS...: with SIGALRM blocked, arm a 1 ms timer
 * and become PROGRAM. */
static int timer_then_exec(char **argv)
{
	struct itimerval once = { .it_value = { .tv_usec = 1000 } };

	CHECK(setitimer(ITIMER_REAL, &once, NULL) == 0);
	execv(argv[0], argv);
	perror(argv[0]);
	return 127;
}

int main(int argc, char **argv)
{
	const char *build = getenv("BUILD");
	char watch[4096], self[4096], line[512], want[64];
	sigset_t alrm = set_of(SIGALRM);
	int out[2], err[2], seen_tkill = 0, seen_kernel = 0;
	FILE *fout, *ferr;
	pid_t pid;

	if (argc > 2 && !strcmp(argv[1], "--timer-then-exec"))
		return timer_then_exec(argv + 2);
	CHECK(build != NULL);
	snprintf(watch, sizeof watch, "%s/bin/sigfd-watch", build);
	snprintf(self, sizeof self, "%s/tests/tools/watch_origins", build);
	CHECK(pipe(out) == 0 && pipe(err) == 0);
	block_only(&alrm);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		CHECK(dup2(out[1], 1) == 1 && dup2(err[1], 2) == 2);
		execl(self, self, "--timer-then-exec", watch, "--count", "2", "--timeout", "60",
		      "ALRM", "USR1", (char *)NULL);
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	fout = fdopen(out[0], "r");
	ferr = fdopen(err[0], "r");
	CHECK(fout && ferr);
	next_line(ferr, line, sizeof line, "watching line");
	snprintf(want, sizeof want, "sigfd-watch: watching pid %d for 2 signals\n", (int)pid);
	CHECK(strcmp(line, want) == 0);
	CHECK(syscall(SYS_tgkill, pid, pid, SIGUSR1) == 0);

	for (int i = 0; i < 2; i++) {
		char sig[32], origin[32], pidfield[32];
		int words;

		next_line(fout, line, sizeof line, "record line");
		words = sscanf(line, "%*s %31s %31s %31s", sig, origin, pidfield);
		if (words >= 2 && !strcmp(sig, "SIGUSR1") && !strcmp(origin, "tkill")) {
			snprintf(want, sizeof want, "pid=%d", (int)getpid());
			CHECK(words == 3 && strcmp(pidfield, want) == 0);
			seen_tkill++;
		} else if (words == 2 && !strcmp(sig, "SIGALRM") && !strcmp(origin, "kernel")) {
			seen_kernel++; /* and no pid, uid or value: words == 2 */
		} else {
			fprintf(stderr, "unexpected line: %s", line);
			return 1;
		}
	}
	CHECK(seen_tkill == 1 && seen_kernel == 1);
	reap_ok(pid);
	CHECK(fgets(line, sizeof line, fout) == NULL);
	CHECK(fgets(line, sizeof line, ferr) == NULL);
	fclose(fout);
	fclose(ferr);
	return 0;
}
