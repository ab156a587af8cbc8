/* SPDX-License-Identifier: MIT */
/* sigfd-watch -- COMMAND, end to end. COMMAND is this program run as a
 * probe (argv[1] == "probe") that reports to a pipe the test hands down.
 * sigfd-watch starts with SIGUSR2 blocked and SIGHUP ignored, as a service
 * manager might leave them:
 *  - COMMAND starts with exactly that mask and those ignored signals;
 *  - SIGHUP reaches it from sigfd-watch (kill), a real-time signal with its
 *    queued value and the original sender's pid (rt_sigqueueinfo), then
 *    SIGTERM kills it: status 143; every one is printed with its origin;
 *  - a COMMAND that ignores SIGTERM survives it and exits 9 on SIGHUP;
 *  - exit statuses: exit 3 -> 3, killed by SIGKILL -> 137, not found -> 127;
 *  - an orphaned grandchild is reaped by sigfd-watch (a subreaper);
 *  - --group sends to COMMAND's process group: a grandchild gets it too. */
#include <fcntl.h>
#include <stdarg.h>
#include <sys/types.h>

#include "check.h"

static int report_fd;

static __attribute__((format(printf, 1, 2))) void say(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	CHECK(n > 0 && write(report_fd, buf, (size_t)n) == n);
}

static uint64_t bits_of(const sigset_t *s)
{
	uint64_t b = 0;
	for (int sig = 1; sig < 65 && sig < NSIG; sig++)
		if (sigismember(s, sig) == 1)
			b |= sigbit(sig);
	return b;
}

/* Block sigs and report each that arrives until SIGHUP: then exit 9. */
static _Noreturn void take_until_hup(const sigset_t *sigs)
{
	for (;;) {
		siginfo_t si;
		int sig = sigwaitinfo(sigs, &si);
		if (sig < 0 && errno == EINTR)
			continue;
		CHECK(sig > 0);
		say("got %d %d %d %d\n", sig, si.si_code, (int)si.si_pid, si.si_value.sival_int);
		if (sig == SIGHUP)
			exit(9);
	}
}

static int probe(char **argv)
{
	const char *mode = argv[3];
	report_fd = atoi(argv[2]);
	if (!strcmp(mode, "state")) {
		sigset_t mask;
		uint64_t ignored = 0;
		CHECK(sigprocmask(SIG_BLOCK, NULL, &mask) == 0);
		for (int sig = 1; sig < NSIG; sig++) {
			struct sigaction sa;
			if (sigaction(sig, NULL, &sa) == 0 && !(sa.sa_flags & SA_SIGINFO) &&
			    sa.sa_handler == SIG_IGN)
				ignored |= sigbit(sig);
		}
		say("state %016llx %016llx %d\n", (unsigned long long)bits_of(&mask),
		    (unsigned long long)ignored, getpgrp() == getpid());
		return 0;
	}
	if (!strcmp(mode, "exit"))
		return atoi(argv[4]);
	if (!strcmp(mode, "kill")) {
		signal(atoi(argv[4]), SIG_DFL);
		kill(getpid(), atoi(argv[4]));
		return 1;
	}
	sigset_t sigs = set_of(SIGHUP);
	sigaddset(&sigs, SIGRTMIN);
	CHECK(signal(SIGHUP, SIG_DFL) != SIG_ERR);
	CHECK(sigprocmask(SIG_BLOCK, &sigs, NULL) == 0);
	if (!strcmp(mode, "take"))
		;
	else if (!strcmp(mode, "ignore-term"))
		CHECK(signal(SIGTERM, SIG_IGN) != SIG_ERR);
	else if (!strcmp(mode, "orphan")) {
		/* middle forks the grandchild and exits: it is orphaned. */
		int p[2];
		CHECK(pipe(p) == 0);
		pid_t middle = fork();
		CHECK(middle >= 0);
		if (middle == 0) {
			pid_t g = fork();
			CHECK(g >= 0);
			if (g == 0) { /* wait for our SIGUSR2, then exit */
				sigset_t u = set_of(SIGUSR2);
				CHECK(sigprocmask(SIG_BLOCK, &u, NULL) == 0);
				CHECK(write(p[1], &(pid_t){getpid()}, sizeof(pid_t)) == sizeof(pid_t));
				int s;
				CHECK(sigwait(&u, &s) == 0);
				_exit(0);
			}
			_exit(0);
		}
		pid_t g;
		CHECK(read(p[0], &g, sizeof g) == sizeof g);
		reap_ok(middle);
		say("orphan %d\n", (int)g);
	} else if (!strcmp(mode, "group")) {
		pid_t g = fork();
		CHECK(g >= 0);
		if (g == 0) {
			int sig;
			say("member %d\n", (int)getpid());
			CHECK(sigwait(&sigs, &sig) == 0 && sig == SIGHUP);
			say("member got %d\n", sig);
			_exit(0);
		}
		say("ready\n");
		int sig;
		CHECK(sigwait(&sigs, &sig) == 0 && sig == SIGHUP);
		reap_ok(g);
		return 9;
	}
	say("ready\n");
	take_until_hup(&sigs);
}

/* One run of sigfd-watch ARGS -- THIS probe REPORT MODE [N]. */
struct run {
	pid_t watch, command;
	FILE *out, *err, *report;
};

static void line_of(FILE *f, char *line, size_t size, const char *what)
{
	if (!fgets(line, (int)size, f)) {
		fprintf(stderr, "no %s line\n", what);
		exit(1);
	}
}

static void start(struct run *r, const char *self, const char *opt, const char *mode,
		  const char *n)
{
	char watch[4096], fdarg[16], line[512];
	int out[2], err[2], rep[2];
	const char *build = getenv("BUILD");

	CHECK(build != NULL);
	snprintf(watch, sizeof watch, "%s/bin/sigfd-watch", build);
	CHECK(pipe2(out, O_CLOEXEC) == 0 && pipe2(err, O_CLOEXEC) == 0 &&
	      pipe2(rep, O_CLOEXEC) == 0);
	r->watch = fork();
	CHECK(r->watch >= 0);
	if (r->watch == 0) {
		/* The state sigfd-watch is started with. */
		sigset_t usr2 = set_of(SIGUSR2);
		for (int sig = 1; sig < NSIG; sig++)
			signal(sig, SIG_DFL);
		signal(SIGHUP, SIG_IGN);
		CHECK(sigprocmask(SIG_SETMASK, &usr2, NULL) == 0);
		CHECK(dup2(out[1], 1) == 1 && dup2(err[1], 2) == 2);
		int w = dup(rep[1]); /* inherited by sigfd-watch and COMMAND */
		CHECK(w > 2);
		snprintf(fdarg, sizeof fdarg, "%d", w);
		/* The log on standard output, apart from the messages. */
		if (opt)
			execl(watch, watch, "-o-", opt, "--", self, "probe", fdarg, mode, n,
			      (char *)NULL);
		else
			execl(watch, watch, "-o-", "--", self, "probe", fdarg, mode, n, (char *)NULL);
		_exit(127);
	}
	CHECK(close(out[1]) == 0 && close(err[1]) == 0 && close(rep[1]) == 0);
	CHECK((r->out = fdopen(out[0], "r")) && (r->err = fdopen(err[0], "r")) &&
	      (r->report = fdopen(rep[0], "r")));
	line_of(r->err, line, sizeof line, "watching");
	long pid = 0;
	CHECK(sscanf(line, "sigfd-watch: watching pid %ld for", &pid) == 1 && pid == r->watch);
	line_of(r->err, line, sizeof line, "running");
	if (sscanf(line, "sigfd-watch: running pid %ld:", &pid) == 1)
		r->command = (pid_t)pid;
	else
		r->command = -1; /* the line says why */
}

/* Wait for sigfd-watch; its exit status. No more on any stream. */
static int finish(struct run *r)
{
	char line[512];
	int status;
	CHECK(waitpid(r->watch, &status, 0) == r->watch && WIFEXITED(status));
	CHECK(fgets(line, sizeof line, r->report) == NULL);
	while (fgets(line, sizeof line, r->err)) { /* a probe's CHECK failure */
		fprintf(stderr, "stderr: %s", line);
		exit(1);
	}
	if (r->out)
		fclose(r->out);
	fclose(r->err);
	fclose(r->report);
	return WEXITSTATUS(status);
}

/* The next record line names sig and origin (and, if want is not NULL,
 * holds it). */
static void expect_record(struct run *r, const char *sig, const char *origin, const char *want)
{
	char line[512], s[32], o[32];
	line_of(r->out, line, sizeof line, sig);
	if (sscanf(line, "%*s %31s %31s", s, o) != 2 || strcmp(s, sig) || strcmp(o, origin) ||
	    (want && !strstr(line, want))) {
		fprintf(stderr, "want %s %s %s, got: %s", sig, origin, want ? want : "", line);
		exit(1);
	}
}

static void expect_report(struct run *r, const char *want)
{
	char line[256];
	line_of(r->report, line, sizeof line, "probe");
	if (strcmp(line, want)) {
		fprintf(stderr, "probe said %s, want %s", line, want);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	char want[128], line[256];
	struct run r;
	int before;

	if (argc >= 4 && !strcmp(argv[1], "probe")) {
		leak_check_off();
		return probe(argv);
	}
	before = lowest_free_fd();
	const char *self = argv[0];
	pid_t me = getpid();

	/* The mask and ignored signals COMMAND would have had. */
	start(&r, self, NULL, "state", NULL);
	snprintf(want, sizeof want, "state %016llx %016llx 1\n",
		 (unsigned long long)sigbit(SIGUSR2), (unsigned long long)sigbit(SIGHUP));
	expect_report(&r, want);
	expect_record(&r, "SIGCHLD", "child-exited", "status=0");
	CHECK(finish(&r) == 0);

	/* SIGHUP by kill, SIGRTMIN with a value, then SIGTERM kills it. */
	start(&r, self, NULL, "take", NULL);
	expect_report(&r, "ready\n");
	CHECK(sigqueue(r.watch, SIGRTMIN, int_val(42)) == 0);
	expect_record(&r, "SIGRTMIN", "sigqueue", "value=42");
	snprintf(want, sizeof want, "got %d %d %d 42\n", SIGRTMIN, SI_QUEUE, (int)me);
	expect_report(&r, want); /* the value, and the sender's pid, kept */
	CHECK(kill(r.watch, SIGTERM) == 0);
	expect_record(&r, "SIGTERM", "kill", NULL);
	expect_record(&r, "SIGCHLD", "child-killed", "status=SIGTERM");
	CHECK(finish(&r) == 128 + SIGTERM);

	start(&r, self, NULL, "take", NULL);
	expect_report(&r, "ready\n");
	CHECK(kill(r.watch, SIGHUP) == 0);
	snprintf(want, sizeof want, "pid=%d", (int)me);
	expect_record(&r, "SIGHUP", "kill", want);
	snprintf(want, sizeof want, "got %d %d %d 0\n", SIGHUP, SI_USER, (int)r.watch);
	expect_report(&r, want);
	expect_record(&r, "SIGCHLD", "child-exited", "status=9");
	CHECK(finish(&r) == 9);

	/* A COMMAND that ignores SIGTERM outlives it. */
	start(&r, self, NULL, "ignore-term", NULL);
	expect_report(&r, "ready\n");
	CHECK(kill(r.watch, SIGTERM) == 0);
	expect_record(&r, "SIGTERM", "kill", NULL);
	CHECK(kill(r.watch, SIGHUP) == 0);
	expect_record(&r, "SIGHUP", "kill", NULL);
	snprintf(want, sizeof want, "got %d %d %d 0\n", SIGHUP, SI_USER, (int)r.watch);
	expect_report(&r, want);
	expect_record(&r, "SIGCHLD", "child-exited", "status=9");
	CHECK(finish(&r) == 9);

	/* Its log gone, it says so once and goes on: the SIGPIPE of its own
	 * write is not passed on (COMMAND would die of it, status 141), and
	 * when SIGPIPE is not watched it does not end sigfd-watch either. */
	for (int pipe_watched = 1; pipe_watched >= 0; pipe_watched--) {
		start(&r, self, pipe_watched ? NULL : "--exclude=PIPE", "take", NULL);
		expect_report(&r, "ready\n");
		fclose(r.out);
		r.out = NULL;
		CHECK(sigqueue(r.watch, SIGRTMIN, int_val(6)) == 0);
		line_of(r.err, line, sizeof line, "warning");
		CHECK(strncmp(line, "sigfd-watch: writing output: ", 29) == 0 &&
		      strstr(line, "still passing signals on"));
		snprintf(want, sizeof want, "got %d %d %d 6\n", SIGRTMIN, SI_QUEUE, (int)me);
		expect_report(&r, want);
		CHECK(kill(r.watch, SIGHUP) == 0);
		snprintf(want, sizeof want, "got %d %d %d 0\n", SIGHUP, SI_USER, (int)r.watch);
		expect_report(&r, want);
		CHECK(finish(&r) == 9);
	}

	/* Exit statuses. */
	start(&r, self, NULL, "exit", "3");
	expect_record(&r, "SIGCHLD", "child-exited", "status=3");
	CHECK(finish(&r) == 3);
	snprintf(want, sizeof want, "%d", SIGKILL);
	start(&r, self, NULL, "kill", want);
	expect_record(&r, "SIGCHLD", "child-killed", "status=SIGKILL");
	CHECK(finish(&r) == 128 + SIGKILL);

	/* Not found: 127, and a line saying so. */
	start(&r, "/nonexistent/command", NULL, "state", NULL);
	CHECK(r.command == -1);
	expect_record(&r, "SIGCHLD", "child-exited", "status=127");
	CHECK(finish(&r) == 127);

	/* An orphaned grandchild comes to sigfd-watch and is reaped: once the
	 * line after its SIGCHLD is printed, it is gone. */
	start(&r, self, NULL, "orphan", NULL);
	int g = 0;
	line_of(r.report, line, sizeof line, "orphan");
	CHECK(sscanf(line, "orphan %d", &g) == 1 && g > 0);
	expect_report(&r, "ready\n");
	snprintf(want, sizeof want, "pid=%d", g);
	CHECK(kill(g, SIGUSR2) == 0);
	expect_record(&r, "SIGCHLD", "child-exited", want);
	CHECK(sigqueue(r.watch, SIGRTMIN, int_val(5)) == 0);
	expect_record(&r, "SIGRTMIN", "sigqueue", "value=5");
	char path[64];
	snprintf(path, sizeof path, "/proc/%d", g);
	errno = 0;
	CHECK(access(path, F_OK) == -1 && errno == ENOENT);
	snprintf(want, sizeof want, "got %d %d %d 5\n", SIGRTMIN, SI_QUEUE, (int)me);
	expect_report(&r, want);
	CHECK(kill(r.watch, SIGHUP) == 0);
	expect_record(&r, "SIGHUP", "kill", NULL);
	snprintf(want, sizeof want, "got %d %d %d 0\n", SIGHUP, SI_USER, (int)r.watch);
	expect_report(&r, want);
	expect_record(&r, "SIGCHLD", "child-exited", "status=9");
	CHECK(finish(&r) == 9);

	/* --group: COMMAND's process group, a grandchild in it included. */
	start(&r, self, "--group", "group", NULL);
	int ready = 0, member = 0;
	for (int i = 0; i < 2; i++) {
		line_of(r.report, line, sizeof line, "group");
		if (!strcmp(line, "ready\n"))
			ready++;
		else
			CHECK(sscanf(line, "member %d", &member) == 1);
	}
	CHECK(ready == 1 && member > 0);
	CHECK(getpgid(member) == r.command); /* COMMAND leads its own group */
	CHECK(kill(r.watch, SIGHUP) == 0);
	expect_record(&r, "SIGHUP", "kill", NULL);
	snprintf(want, sizeof want, "member got %d\n", SIGHUP);
	expect_report(&r, want);
	expect_record(&r, "SIGCHLD", "child-exited", "status=9");
	CHECK(finish(&r) == 9);

	CHECK(lowest_free_fd() == before);
	return 0;
}
