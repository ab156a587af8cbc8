/* SPDX-License-Identifier: MIT */
/* What an init wrapper adds to starting a program: WRAPPER ... /bin/true
 * against /bin/true alone, for sigfd-watch's default build and its static
 * one (make static) beside tini, dumb-init and catatonit, in one run.
 * Runs are interleaved: each round runs every wrapper once per turn, in an
 * order shuffled per round, RUNS turns, so load from other work falls on
 * all alike. Two measures per run, output to /dev/null: the wall time from
 * posix_spawn() to wait4(), and the CPU time (user + system) the wrapper
 * and the children it reaped used, from wait4()'s rusage, which waiting
 * for a CPU does not inflate (on a loaded machine the wall figure mostly
 * measures the load). Per round and wrapper: medians over its runs;
 * "added" is that minus /bin/true's in the same round, and its ratio to
 * catatonit's added in the same round. Printed: medians over rounds, with
 * [min-max]. No assertion: figures and ratios to read. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

extern char **environ;

#define MAXW 8
#define MAXR 101

struct wrapper {
	const char *name;
	const char *argv[10]; /* argv[0] a path, or a name looked up in PATH */
	char path[4096];      /* "" when not found */
	double wall[MAXR], cpu[MAXR]; /* ms, median of the round's runs */
	double wall_added[MAXR], cpu_added[MAXR], ratio[MAXR];
};

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int find(struct wrapper *w)
{
	const char *p = w->argv[0], *dirs = getenv("PATH");

	if (strchr(p, '/')) {
		snprintf(w->path, sizeof w->path, "%s", p);
		return access(w->path, X_OK) == 0;
	}
	for (const char *d = dirs ? dirs : "/usr/bin:/bin"; *d;) {
		size_t len = strcspn(d, ":");
		snprintf(w->path, sizeof w->path, "%.*s/%s", (int)len, d, p);
		if (access(w->path, X_OK) == 0)
			return 1;
		d += len + (d[len] == ':');
	}
	w->path[0] = '\0';
	return 0;
}

static double tv_ms(struct timeval t)
{
	return (double)t.tv_sec * 1e3 + (double)t.tv_usec / 1e3;
}

/* One run: wall and CPU ms; -1 when it did not exit 0. */
static int run_once(struct wrapper *w, posix_spawn_file_actions_t *fa, double *wall, double *cpu)
{
	struct rusage ru;
	char *argv[10];
	pid_t pid;
	int status;

	memcpy(argv, (char **)w->argv, sizeof argv);
	argv[0] = w->path;
	double t0 = now_ms();
	if (posix_spawn(&pid, w->path, fa, NULL, argv, environ) != 0)
		return -1;
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR)
			return -1;
	*wall = now_ms() - t0;
	*cpu = tv_ms(ru.ru_utime) + tv_ms(ru.ru_stime);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static void stat3(double *v, int n, double *med, double *lo, double *hi)
{
	double tmp[MAXR];
	int k = 0;

	for (int i = 0; i < n; i++)
		if (!isnan(v[i]))
			tmp[k++] = v[i];
	*med = median_of(tmp, k); /* sorts tmp */
	*lo = k ? tmp[0] : NAN;
	*hi = k ? tmp[k - 1] : NAN;
}

static const char *linkage(const char *path)
{
	char cmd[4200];

	/* The figure depends on it: a dynamic program pays ld.so. */
	snprintf(cmd, sizeof cmd, "readelf -lW '%s' 2>/dev/null | grep -q INTERP", path);
	return system(cmd) == 0 ? "dynamic" : "static";
}

int main(int argc, char **argv)
{
	const char *watch = "build/cc/bin/sigfd-watch", *stat_watch = "build/static/bin/sigfd-watch";
	int rounds = 11, runs = 100;
	struct wrapper w[MAXW] = {
		{.name = "/bin/true alone", .argv = {"/bin/true"}},
		{.name = "sigfd-watch", .argv = {NULL, "--", "/bin/true"}},
		{.name = "sigfd-watch (static)", .argv = {NULL, "--", "/bin/true"}},
		{.name = "tini", .argv = {"tini", "-s", "--", "/bin/true"}},
		{.name = "dumb-init", .argv = {"dumb-init", "/bin/true"}},
		{.name = "catatonit", .argv = {"catatonit", "--", "/bin/true"}},
	};
	int nw = 6, base = 0, ref = 5;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quick") == 0) {
			rounds = 3;
			runs = 20;
		} else if (strcmp(argv[i], "--watch") == 0 && i + 1 < argc)
			watch = argv[++i];
		else if (strcmp(argv[i], "--static") == 0 && i + 1 < argc)
			stat_watch = argv[++i];
		else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
			rounds = atoi(argv[++i]);
		else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
			runs = atoi(argv[++i]);
		else {
			fprintf(stderr, "usage: %s [--quick] [--rounds N] [--runs N] [--watch PATH] "
					"[--static PATH]\n", argv[0]);
			return 2;
		}
	}
	if (rounds < 1 || rounds > MAXR || runs < 1) {
		fprintf(stderr, "rounds 1 to %d, runs from 1\n", MAXR);
		return 2;
	}
	w[1].argv[0] = watch;
	w[2].argv[0] = stat_watch;

	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);

	int have[MAXW], order[MAXW];
	for (int i = 0; i < nw; i++)
		have[i] = find(&w[i]);
	if (!have[base]) {
		fprintf(stderr, "no /bin/true\n");
		return 1;
	}
	double la[3] = {NAN, NAN, NAN};
	struct utsname u;
	time_t t = time(NULL);
	char when[64];
	uname(&u);
	getloadavg(la, 3);
	strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", gmtime(&t));
	printf("wrapper startup %s: WRAPPER ... /bin/true against /bin/true alone\n", when);
	printf("machine: %ld CPUs, Linux %s; load average %.2f %.2f %.2f at start\n",
	       sysconf(_SC_NPROCESSORS_ONLN), u.release, la[0], la[1], la[2]);
	printf("%d rounds of %d turns, each turn running every wrapper once (order shuffled per\n"
	       "round, seed 1)\n", rounds, runs);
	fflush(stdout);

	srand(1);
	double *wall = malloc(sizeof *wall * (size_t)runs * MAXW);
	double *cpu = malloc(sizeof *cpu * (size_t)runs * MAXW);
	int failed[MAXW] = {0};
	if (!wall || !cpu)
		return 1;
	for (int i = 0; i < nw; i++) { /* the page cache warm for each */
		double a, b;
		if (have[i])
			failed[i] |= run_once(&w[i], &fa, &a, &b) < 0;
	}
	for (int r = 0; r < rounds; r++) {
		for (int i = 0; i < nw; i++)
			order[i] = i;
		for (int i = nw - 1; i > 0; i--) {
			int j = rand() % (i + 1), x = order[i];
			order[i] = order[j];
			order[j] = x;
		}
		for (int n = 0; n < runs; n++)
			for (int k = 0; k < nw; k++) {
				int i = order[k];
				if (have[i])
					failed[i] |= run_once(&w[i], &fa, &wall[i * runs + n],
							      &cpu[i * runs + n]) < 0;
			}
		for (int i = 0; i < nw; i++) {
			w[i].wall[r] = have[i] ? median_of(&wall[i * runs], runs) : NAN;
			w[i].cpu[r] = have[i] ? median_of(&cpu[i * runs], runs) : NAN;
		}
		for (int i = 0; i < nw; i++) {
			w[i].wall_added[r] = w[i].wall[r] - w[base].wall[r];
			w[i].cpu_added[r] = w[i].cpu[r] - w[base].cpu[r];
		}
		for (int i = 0; i < nw; i++)
			w[i].ratio[r] = have[ref] ? w[i].cpu_added[r] / w[ref].cpu_added[r] : NAN;
	}
	free(wall);
	free(cpu);

	printf("\nms per run (median over rounds); added: minus /bin/true's in the same round; ratio:\n"
	       "CPU added over catatonit's CPU added in the same round\n");
	printf("  %-21s %-7s %7s %20s %7s %20s %18s\n", "wrapper", "linked", "wall", "wall added [min-max]",
	       "CPU", "CPU added [min-max]", "ratio [min-max]");
	for (int i = 0; i < nw; i++) {
		double m, a, alo, ahi, c, ca, calo, cahi, q, qlo, qhi, x;
		if (!have[i]) {
			printf("  %-21s not installed (%s)\n", w[i].name, w[i].argv[0]);
			continue;
		}
		if (failed[i]) {
			printf("  %-21s failed: a run did not exit 0\n", w[i].name);
			continue;
		}
		stat3(w[i].wall, rounds, &m, &x, &x);
		stat3(w[i].cpu, rounds, &c, &x, &x);
		printf("  %-21s %-7s %7.3f", w[i].name, linkage(w[i].path), m);
		if (i == base) {
			printf(" %20s %7.3f\n", "", c);
			continue;
		}
		stat3(w[i].wall_added, rounds, &a, &alo, &ahi);
		stat3(w[i].cpu_added, rounds, &ca, &calo, &cahi);
		printf(" %6.3f [%5.2f-%5.2f] %7.3f %6.3f [%5.2f-%5.2f]", a, alo, ahi, c, ca, calo, cahi);
		if (have[ref] && !failed[ref]) {
			stat3(w[i].ratio, rounds, &q, &qlo, &qhi);
			printf(" %5.2f [%4.2f-%5.2f]", q, qlo, qhi);
		}
		printf("\n");
	}
	getloadavg(la, 3);
	printf("load average %.2f %.2f %.2f at end\n", la[0], la[1], la[2]);
	posix_spawn_file_actions_destroy(&fa);
	return 0;
}
