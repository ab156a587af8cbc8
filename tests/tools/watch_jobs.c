/* SPDX-License-Identifier: MIT */
/* Job control through sigfd-watch -- COMMAND, driven in a real interactive
 * bash on a pseudo-terminal of this test's own, as a user would type:
 *  - COMMAND reads the terminal; Ctrl-Z gives the prompt back with the job
 *    Stopped by SIGTSTP ($? 148); fg: COMMAND reads the terminal again; Ctrl-C ends it
 *    and the shell sees 130;
 *  - `sigfd-watch -- COMMAND &` reading the terminal is a job "Stopped (tty
 *    input)"; fg resumes it, and it reads;
 *  - the same for a write under `stty tostop` ("Stopped(SIGTTOU)").
 * COMMAND is this program as a probe: it says "ready", then echoes each line
 * it reads as "got:LINE". Every step waits for the text it expects, with a
 * poll() timeout; bash runs with `set -b`, so a job's change is reported
 * as it happens, not at the next prompt. Without bash: SKIPPED.
 * Each part passed is said on a line "part NAME: ok". With
 * WATCH_JOBS_WRAPPER="tini -s --" (say) another wrapper is driven instead:
 * tools/compare-wrappers.sh does, for its table. */
#include <fcntl.h>
#include <termios.h>

#include "check.h"

#define STEP_MS 10000 /* what any one step may take on a loaded machine */

static int probe(void)
{
	char line[256];

	/* Unbuffered: each line leaves when written (the tostop case stops in
	 * this very write). */
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("probe-%s\n", "ready");
	while (fgets(line, sizeof line, stdin))
		printf("got:%s", line);
	return 0;
}

struct term {
	int master;
	char buf[1 << 16];
	size_t len;
};

/* Read what the terminal shows until want appears after offset from: its
 * end, or fail showing what came. */
static size_t wait_for(struct term *t, size_t from, const char *want)
{
	for (;;) {
		t->buf[t->len] = '\0';
		char *hit = strstr(t->buf + from, want);
		if (hit)
			return (size_t)(hit - t->buf) + strlen(want);
		struct pollfd p = {.fd = t->master, .events = POLLIN};
		int r = poll(&p, 1, STEP_MS);
		ssize_t n = r > 0 ? read(t->master, t->buf + t->len, sizeof t->buf - 1 - t->len) : 0;
		if (n <= 0) {
			leak_check_pid = 0;
			fprintf(stderr, "no '%s' on the terminal within %d ms; it shows:\n%s\n", want,
				STEP_MS, t->buf + from);
			exit(1);
		}
		t->len += (size_t)n;
		CHECK(t->len < sizeof t->buf - 1);
	}
}

static void type(struct term *t, const char *s)
{
	size_t n = strlen(s);
	CHECK(write(t->master, s, n) == (ssize_t)n);
}

/* Type a command line; wait for its end, marked by an echo whose output
 * differs from its typed text. The output from the typing on is at
 * t->buf + the value returned. */
static size_t shell(struct term *t, const char *line)
{
	static int marks;
	char cmd[512], want[32];
	size_t from = t->len;

	marks++;
	snprintf(cmd, sizeof cmd, "%s; echo mark%d$((0))x\n", line, marks);
	snprintf(want, sizeof want, "mark%d0x", marks);
	type(t, cmd);
	wait_for(t, from, want);
	return from;
}

/* Another wrapper (WATCH_JOBS_WRAPPER) may stop with another signal: what
 * it stopped with is noted for the part's line, and any stop will do. */
static int other_wrapper;
static char stopped_with[64];

/* The shell reports the job stopped by sig (bash's POSIX mode says
 * "Stopped(SIGTSTP)"); returns where that report ends. */
static size_t expect_stop(struct term *t, size_t from, const char *sig)
{
	char want[64];

	if (!other_wrapper) {
		snprintf(want, sizeof want, "Stopped(%s)", sig);
		return wait_for(t, from, want);
	}
	size_t at = wait_for(t, from, "Stopped(");
	size_t end = wait_for(t, at, ")");
	snprintf(stopped_with, sizeof stopped_with, "%.*s", (int)(end - at - 1), t->buf + at);
	return end;
}

/* The shell's $? for the job just stopped: 128 + the stop signal. */
static int stop_status(int sig)
{
	static const struct { const char *name; int sig; } stops[] = {
		{"SIGSTOP", SIGSTOP}, {"SIGTSTP", SIGTSTP}, {"SIGTTIN", SIGTTIN}, {"SIGTTOU", SIGTTOU},
	};
	for (size_t i = 0; other_wrapper && i < sizeof stops / sizeof stops[0]; i++)
		if (!strcmp(stopped_with, stops[i].name))
			return 128 + stops[i].sig;
	return 128 + sig;
}

/* Ctrl-C to the foreground job, then the shell's prompt: what is typed
 * before it would be lost with the job (bash reads nothing meanwhile). */
static void interrupt(struct term *t)
{
	size_t at = t->len;
	type(t, "\003");
	wait_for(t, at, "$ ");
}

/* The shell's last status, as it says. */
static void expect_status(struct term *t, int want)
{
	char s[32];
	size_t from = shell(t, "echo status=$?");
	snprintf(s, sizeof s, "status=%d\r\n", want);
	wait_for(t, from, s);
}

/* fg; (ready: the probe's first line then comes) the probe reads the line
 * typed; Ctrl-C ends it, and the shell says 130. */
static void fg_reads(struct term *t, int ready, const char *line)
{
	char typed[64], got[64];
	size_t at = t->len;

	type(t, "fg\n");
	if (ready)
		at = wait_for(t, at, "probe-ready");
	snprintf(typed, sizeof typed, "%s\n", line);
	snprintf(got, sizeof got, "got:%s", line);
	type(t, typed);
	wait_for(t, at, got);
	interrupt(t);
	expect_status(t, 128 + SIGINT);
}

int main(int argc, char **argv)
{
	struct term *t = calloc(1, sizeof *t);
	char watch[4096], self[4096];
	size_t at;

	if (argc == 2 && !strcmp(argv[1], "probe")) {
		leak_check_off();
		return probe();
	}
	CHECK(t != NULL);
	if (access("/bin/bash", X_OK) != 0) {
		printf("bash is not installed (apt-get install bash)\n");
		free(t);
		return 77;
	}
	CHECK(getenv("BUILD") != NULL && realpath(argv[0], self) != NULL);
	snprintf(watch, sizeof watch, "%s/bin/sigfd-watch", getenv("BUILD"));
	CHECK(access(watch, X_OK) == 0);
	const char *other = getenv("WATCH_JOBS_WRAPPER");
	if ((other_wrapper = other && *other))
		snprintf(watch, sizeof watch, "%s", other);
	else
		strcat(watch, " -q --");
	t->master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (t->master < 0) {
		printf("no pseudo-terminal: %s\n", strerror(errno));
		free(t);
		return 77;
	}
	CHECK(grantpt(t->master) == 0 && unlockpt(t->master) == 0);
	const char *slave = ptsname(t->master);
	CHECK(slave != NULL);
	pid_t bash = fork();
	CHECK(bash >= 0);
	if (bash == 0) {
		/* A session of its own with the terminal as its controlling one,
		 * as a terminal emulator starts a shell; no inherited mask or
		 * ignored signal (the runner may start us in the background). */
		sigset_t none;
		sigemptyset(&none);
		for (int sig = 1; sig < NSIG; sig++)
			signal(sig, SIG_DFL);
		CHECK(sigprocmask(SIG_SETMASK, &none, NULL) == 0);
		CHECK(setsid() > 0);
		int fd = open(slave, O_RDWR);
		CHECK(fd >= 0 && dup2(fd, 0) == 0 && dup2(fd, 1) == 1 && dup2(fd, 2) == 2);
		if (fd > 2)
			close(fd);
		/* No history written to the user's home. */
		CHECK(setenv("PS1", "$ ", 1) == 0 && setenv("TERM", "dumb", 1) == 0 &&
		      setenv("HISTFILE", "/dev/null", 1) == 0 &&
		      setenv("W", watch, 1) == 0 && setenv("P", self, 1) == 0);
		unsetenv("PROMPT_COMMAND");
		execl("/bin/bash", "bash", "--norc", "--noprofile", "--noediting", "-i",
		      (char *)NULL);
		_exit(127);
	}
	/* Job control is on (set -m is the default of an interactive shell
	 * on a terminal); changes are told at once; POSIX mode names the
	 * signal that stopped a job ("Stopped(SIGTTIN)", the "Stopped (tty
	 * input)" of dash and of bash's strsignal), where bash's own mode only
	 * says "Stopped". */
	shell(t, "set -b -o posix");

	/* Ctrl-Z, fg, Ctrl-C. */
	at = t->len;
	type(t, "$W $P probe\n");
	at = wait_for(t, at, "probe-ready");
	type(t, "abc\n");
	at = wait_for(t, at, "got:abc");
	type(t, "\032"); /* Ctrl-Z */
	expect_stop(t, at, "SIGTSTP");
	expect_status(t, stop_status(SIGTSTP));
	at = t->len;
	type(t, "fg\n");
	type(t, "def\n");
	at = wait_for(t, at, "got:def");
	interrupt(t); /* Ctrl-C */
	expect_status(t, 128 + SIGINT);
	printf("part ctrl-z, fg, ctrl-c: ok %s\n", stopped_with);

	/* Ctrl-Z, bg, fg: continued in the background first, it gets the
	 * terminal when brought to the foreground. */
	at = t->len;
	type(t, "$W $P probe\n");
	at = wait_for(t, at, "probe-ready");
	type(t, "\032");
	at = expect_stop(t, at, "SIGTSTP");
	/* Continued in the background, the probe reads and stops again; fg
	 * is typed once the shell has said so (an fg typed while the stop is
	 * still under way can leave the job stopped: sigfd-watch(1) BUGS). */
	at = shell(t, "bg");
	expect_stop(t, at, "SIGTTIN");
	fg_reads(t, 0, "mno");
	printf("part ctrl-z, bg, fg: ok %s\n", stopped_with);

	/* A background job that reads the terminal. */
	at = t->len;
	type(t, "$W $P probe &\n");
	expect_stop(t, at, "SIGTTIN");
	fg_reads(t, 0, "ghi");
	printf("part background read: ok %s\n", stopped_with);

	/* A background job that writes to it, with tostop: stopped in its
	 * first write, which comes once it is in the foreground. */
	shell(t, "stty tostop");
	at = t->len;
	type(t, "$W $P probe &\n");
	expect_stop(t, at, "SIGTTOU");
	fg_reads(t, 1, "jkl");
	shell(t, "stty -tostop");
	printf("part background write with tostop: ok %s\n", stopped_with);

	type(t, "exit\n");
	int status;
	CHECK(waitpid(bash, &status, 0) == bash);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(close(t->master) == 0);
	free(t);
	return 0;
}
