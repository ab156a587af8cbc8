/* SPDX-License-Identifier: MIT */
/* sigfd-bench: sigfd beside every mechanism a user would pick instead, in
 * one run. Repetitions are interleaved: each round runs every test for
 * every mechanism, in an order shuffled afresh per test and round, so slow
 * drift of the machine (other users, frequency) spreads over all rows and
 * every ratio compares two figures taken moments apart. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

static const struct mech *const all_mechs[] = {
	&mech_signalfd, /* first: the reference every ratio divides by */
	&mech_signalfd_epoll, &mech_sigwaitinfo, &mech_selfpipe,
	&mech_forward_thread, &mech_forward_socket,
	&mech_sigfd_local, &mech_sigfd_share, &mech_sigfd_share_5000, &mech_sigfd_kernel,
	&mech_sigfd_native,
	&mech_libuv, &mech_libev, &mech_libev_signalfd, &mech_libevent,
};
#define NMECHS (int)(sizeof all_mechs / sizeof all_mechs[0])

static const char *const test_names[NTEST] = { "rtt", "free", "tput", "batch", "flood", "self", "fork" };

static void usage(FILE *f)
{
	fprintf(f,
		"usage: sigfd-bench [--quick] [--rounds N] [--only MECH,...] [--tests T,...]\n"
		"                   [--out DIR] [--cpu N] [--seed N] [--timeout S] [--list]\n"
		"  --quick      smoke run, under 30 s (CI)\n"
		"  --only       mechanisms to run; signalfd, the reference, is always added\n"
		"  --tests      of rtt (pinned round trip), free (unpinned round trip), tput,\n"
		"               batch (throughput one record per call, batched), flood, self,\n"
		"               fork (fork+_exit+waitpid with the mechanism set up), mem\n"
		"  --out        directory for report.txt and the CSV files (default build/bench)\n"
		"  --cpu        the CPU the pinned tests use (default: the highest allowed)\n"
		"  --list       print the mechanisms and whether they are available here\n"
		"Exit status 1 only when a mechanism fails functionally (loses, duplicates or\n"
		"reorders a value in a flow-controlled test, or stalls).\n");
}

static void defaults(struct cfg *c, int quick)
{
	c->quick = quick;
	/* Many short rounds rather than a few long ones: on a shared machine
	 * the median of per-round ratios is what stays put. */
	c->rounds = quick ? 2 : 11;
	c->rtt_pin_n = quick ? 2000 : 30000;
	c->rtt_free_n = quick ? 500 : 5000;
	c->rtt_warm = quick ? 200 : 1000;
	c->tput_n = quick ? 20000 : 100000;
	c->window = 256;
	c->ack_every = 64;
	c->flood_n = 8192;
	c->self_n = quick ? 5000 : 50000;
	c->fork_n = quick ? 100 : 500;
	c->fork_warm = quick ? 10 : 50;
	c->mem_fds = quick ? 4 : 16;
	c->batch = 64;
	c->quiet_ms = quick ? 50 : 200;
	c->timeout_s = quick ? 10 : 60;
	c->cpu = -1;
	c->seed = 1;
	c->out = "build/bench";
}

static int mkdirs(const char *path)
{
	char buf[512];

	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			if (mkdir(buf, 0777) < 0 && errno != EEXIST)
				return -1;
			*p = '/';
		}
	return mkdir(buf, 0777) < 0 && errno != EEXIST ? -1 : 0;
}

static int in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == n && !strncmp(p, name, n))
			return 1;
		p = e ? e + 1 : NULL;
	}
	return 0;
}

/* The flood queues flood_n signals at once; blocked mechanisms hold them
 * in the kernel queue, which RLIMIT_SIGPENDING bounds per user. */
static void sigpending_limit(struct bench *b)
{
	struct rlimit rl;
	rlim_t want = (rlim_t)(2 * b->cfg.flood_n + b->cfg.window);

	if (getrlimit(RLIMIT_SIGPENDING, &rl) < 0)
		return;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want) {
		rlim_t old = rl.rlim_cur;
		rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > want ? want : rl.rlim_max;
		setrlimit(RLIMIT_SIGPENDING, &rl);
		snprintf(b->sigpending_note, sizeof b->sigpending_note,
			 "RLIMIT_SIGPENDING soft limit raised from %llu to %llu for the flood test",
			 (unsigned long long)old, (unsigned long long)rl.rlim_cur);
	} else {
		snprintf(b->sigpending_note, sizeof b->sigpending_note,
			 "RLIMIT_SIGPENDING soft limit %llu (enough, not changed)",
			 (unsigned long long)rl.rlim_cur);
	}
}

static void loadavg(char *buf, size_t n)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double a = 0, b = 0, c = 0;

	if (f && fscanf(f, "%lf %lf %lf", &a, &b, &c) == 3)
		snprintf(buf, n, "%.2f %.2f %.2f", a, b, c);
	else
		snprintf(buf, n, "?");
	if (f)
		fclose(f);
}

/* Absolute figures only compare across machines with this in mind:
 * nested virtualisation can make every system call several times dearer. */
static void floors(struct bench *b)
{
	int64_t t0 = now_ns();

	for (int i = 0; i < 100000; i++)
		getppid();
	int64_t t1 = now_ns();
	for (int i = 0; i < 100000; i++)
		now_ns();
	b->syscall_ns = (double)(t1 - t0) / 1e5;
	b->clock_ns = (double)(now_ns() - t1) / 1e5;
}

static void shuffle(int *v, int n, unsigned *seed)
{
	for (int i = n - 1; i > 0; i--) {
		int j = (int)(rand_r(seed) % (unsigned)(i + 1)), t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
}

static void pool_add(struct row *row, int which, const struct result *r)
{
	int64_t *p = realloc(row->pool[which], (row->npool[which] + r->nsamples) * sizeof *p);

	if (!p)
		return;
	memcpy(p + row->npool[which], r->samples, r->nsamples * sizeof *p);
	row->pool[which] = p;
	row->npool[which] += r->nsamples;
}

/* Whether test t applies to the mechanism at all; if not, why. */
static const char *not_applicable(const struct mech *m, int t)
{
	if ((t == T_TPUT_ONE || t == T_TPUT_BATCH) && (m->flags & M_COALESCE))
		return "n/a: coalesces (one callback may stand for several signals, no count)";
	if (t == T_TPUT_BATCH && !m->wait_batch)
		return "n/a: no batched dequeue";
	return NULL;
}

static void run_one(struct bench *b, struct row *row, int t, int round)
{
	struct cell *cell = &row->cell[t];
	struct result r;

	switch (t) {
	case T_RTT_PIN:
	case T_RTT_FREE:
		test_rtt(row->m, t == T_RTT_PIN, &r);
		break;
	case T_TPUT_ONE:
	case T_TPUT_BATCH:
		test_tput(row->m, t == T_TPUT_BATCH, &r);
		break;
	case T_FLOOD:
		test_flood(row->m, &r);
		break;
	case T_SELF:
		test_self(row->m, &r);
		break;
	default:
		test_fork(row->m, &r);
		break;
	}
	if (r.status != OUT_OK) {
		cell->st = C_FAIL;
		snprintf(cell->msg, sizeof cell->msg, "FAILED: %s", r.msg);
		fprintf(stderr, "  %s %s: FAILED: %s\n", row->m->name, test_names[t], r.msg);
		return;
	}
	cell->st = C_OK;
	switch (t) {
	case T_RTT_PIN:
	case T_RTT_FREE: {
		int base = t == T_RTT_PIN ? V_RTT_PIN_P50 : V_RTT_FREE_P50;
		row->val[base][round] = r.v[0];
		row->val[base + 1][round] = r.v[1];
		pool_add(row, t == T_RTT_FREE, &r);
		free(r.samples);
		break;
	}
	case T_TPUT_ONE:
		row->val[V_TPUT_ONE][round] = r.v[0];
		break;
	case T_TPUT_BATCH:
		row->val[V_TPUT_BATCH][round] = r.v[0];
		break;
	case T_FLOOD:
		row->val[V_FLOOD_GOT][round] = r.v[0];
		row->val[V_FLOOD_REFUSED][round] = r.v[1];
		break;
	case T_SELF:
		row->val[V_SELF][round] = r.v[0];
		break;
	default:
		row->val[V_FORK][round] = r.v[0];
		row->val[V_FORK_MEAN][round] = r.v[1];
	}
	(void)b;
}

int main(int argc, char **argv)
{
	static struct bench b;
	static const struct option opts[] = {
		{ "quick", no_argument, NULL, 'q' },     { "rounds", required_argument, NULL, 'r' },
		{ "only", required_argument, NULL, 'o' }, { "tests", required_argument, NULL, 't' },
		{ "out", required_argument, NULL, 'O' },  { "cpu", required_argument, NULL, 'c' },
		{ "seed", required_argument, NULL, 's' }, { "timeout", required_argument, NULL, 'T' },
		{ "list", no_argument, NULL, 'l' },       { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *only = NULL, *tests = NULL, *out = NULL;
	int rounds = 0, cpu = -1, list = 0, timeout = 0, quick = 0, seed = -1, o;

	while ((o = getopt_long(argc, argv, "qr:o:t:O:c:s:T:lh", opts, NULL)) != -1) {
		switch (o) {
		case 'q': quick = 1; break;
		case 'r': rounds = atoi(optarg); break;
		case 'o': only = optarg; break;
		case 't': tests = optarg; break;
		case 'O': out = optarg; break;
		case 'c': cpu = atoi(optarg); break;
		case 's': seed = atoi(optarg); break;
		case 'T': timeout = atoi(optarg); break;
		case 'l': list = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}
	defaults(&b.cfg, quick);
	if (rounds > 0)
		b.cfg.rounds = rounds < MAXROUNDS ? rounds : MAXROUNDS;
	if (out)
		b.cfg.out = out;
	if (timeout > 0)
		b.cfg.timeout_s = timeout;
	if (seed >= 0)
		b.cfg.seed = (unsigned)seed;
	b.cfg.cpu = cpu >= 0 ? cpu : pick_cpu();
	for (int t = 0; t < NTEST; t++)
		b.tests[t] = !tests || in_list(tests, test_names[t]);
	b.mem = !tests || in_list(tests, "mem");
	if (only) {
		for (const char *p = only; *p;) {
			const char *e = strchr(p, ',');
			size_t len = e ? (size_t)(e - p) : strlen(p);
			int found = 0;
			for (int i = 0; i < NMECHS; i++)
				found |= strlen(all_mechs[i]->name) == len && !strncmp(all_mechs[i]->name, p, len);
			if (!found) {
				fprintf(stderr, "sigfd-bench: no mechanism '%.*s' (see --list)\n", (int)len, p);
				return 2;
			}
			p = e ? e + 1 : p + len;
		}
	}
	for (int i = 0; i < NMECHS; i++)
		if (i == 0 || !only || in_list(only, all_mechs[i]->name))
			b.rows[b.nrows++].m = all_mechs[i];

	if (tests_init(&b.cfg) < 0) {
		perror("sigfd-bench: setup");
		return 2;
	}
	/* Availability once, before timing anything. */
	for (int i = 0; i < b.nrows; i++) {
		struct result r;
		test_probe(b.rows[i].m, &r);
		b.rows[i].avail = r.status == OUT_OK ? C_OK : C_UNAVAIL;
		snprintf(b.rows[i].availmsg, sizeof b.rows[i].availmsg, "%s", r.msg);
	}
	if (list) {
		for (int i = 0; i < b.nrows; i++)
			printf("%-15s %-9s %s%s%s\n", b.rows[i].m->name,
			       b.rows[i].avail == C_OK ? "available" : "-", b.rows[i].m->what,
			       b.rows[i].avail == C_OK ? "" : "\n                          ",
			       b.rows[i].avail == C_OK ? "" : b.rows[i].availmsg);
		return 0;
	}
	if (mkdirs(b.cfg.out) < 0) {
		fprintf(stderr, "sigfd-bench: %s: %s\n", b.cfg.out, strerror(errno));
		return 2;
	}
	sigpending_limit(&b);
	floors(&b);
	loadavg(b.load_start, sizeof b.load_start);
	time_t now = time(NULL);
	strftime(b.date, sizeof b.date, "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
	for (int i = 0; i < b.nrows; i++)
		for (int v = 0; v < NVAL; v++)
			for (int r = 0; r < MAXROUNDS; r++)
				b.rows[i].val[v][r] = NAN;
	for (int i = 0; i < b.nrows; i++)
		for (int t = 0; t < NTEST; t++) {
			struct row *row = &b.rows[i];
			const char *na = not_applicable(row->m, t);
			if (!b.tests[t])
				continue;
			if (row->avail != C_OK) {
				row->cell[t].st = C_UNAVAIL;
				snprintf(row->cell[t].msg, sizeof row->cell[t].msg, "%s", row->availmsg);
			} else if (na) {
				row->cell[t].st = C_NA;
				snprintf(row->cell[t].msg, sizeof row->cell[t].msg, "%s", na);
			}
		}

	int64_t t0 = now_ns();
	unsigned seed_state = b.cfg.seed;
	fprintf(stderr, "sigfd-bench: %d rounds of %d mechanisms, pinned tests on CPU %d%s\n",
		b.cfg.rounds, b.nrows, b.cfg.cpu, b.cfg.quick ? " (quick)" : "");
	for (int round = 0; round < b.cfg.rounds; round++) {
		for (int t = 0; t < NTEST; t++) {
			int order[16];
			if (!b.tests[t])
				continue;
			for (int i = 0; i < b.nrows; i++)
				order[i] = i;
			shuffle(order, b.nrows, &seed_state);
			for (int k = 0; k < b.nrows; k++) {
				struct row *row = &b.rows[order[k]];
				enum cellstat st = row->cell[t].st;
				/* A failure is not retried: it would cost a
				 * timeout per round and prove nothing new. */
				if (st == C_NONE || st == C_OK)
					run_one(&b, row, t, round);
			}
		}
		b.rounds_done = round + 1;
		fprintf(stderr, "  round %d/%d done, %.1f s\n", round + 1, b.cfg.rounds,
			(double)(now_ns() - t0) / 1e9);
	}
	if (b.mem)
		for (int i = 0; i < n_memmodes; i++) {
			int wanted = 0;
			for (int k = 0; k < b.nrows; k++)
				wanted |= !strcmp(b.rows[k].m->name, memmodes[i].name);
			b.mem_sel[i] = wanted;
			if (wanted)
				test_memory(&memmodes[i], b.cfg.mem_fds, &b.mem_res[i]);
		}
	b.seconds = (double)(now_ns() - t0) / 1e9;
	loadavg(b.load_end, sizeof b.load_end);
	report(&b);

	int failed = 0;
	for (int i = 0; i < b.nrows; i++)
		for (int t = 0; t < NTEST; t++)
			failed |= b.rows[i].cell[t].st == C_FAIL;
	for (int i = 0; i < n_memmodes; i++)
		failed |= b.mem && b.mem_sel[i] && b.mem_res[i].status == OUT_FAIL;
	return failed;
}
