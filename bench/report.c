/* SPDX-License-Identifier: MIT */
/* Output: the terminal table (also kept as report.txt), the CSV files and
 * the data files plot.gp draws. Every figure is the median over rounds;
 * every ratio is taken per round against signalfd measured in that same
 * round, then summarised as median [min-max] over rounds. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bench.h"

static FILE *rep;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (rep) {
		va_start(ap, fmt);
		vfprintf(rep, fmt, ap);
		va_end(ap);
	}
}

struct vinfo {
	const char *name;  /* CSV metric */
	const char *label; /* table column */
	const char *unit;  /* CSV unit (raw) */
	double scale;      /* raw -> table unit */
	int prec;
	int test;
};

static const struct vinfo vi[NVAL] = {
	[V_RTT_PIN_P50] = { "rtt_pinned_p50", "p50 us", "ns", 1e-3, 2, T_RTT_PIN },
	[V_RTT_PIN_P99] = { "rtt_pinned_p99", "p99 us", "ns", 1e-3, 2, T_RTT_PIN },
	[V_RTT_FREE_P50] = { "rtt_unpinned_p50", "p50 us", "ns", 1e-3, 2, T_RTT_FREE },
	[V_RTT_FREE_P99] = { "rtt_unpinned_p99", "p99 us", "ns", 1e-3, 2, T_RTT_FREE },
	[V_TPUT_ONE] = { "tput_one_per_call", "one/call M/s", "signals/s", 1e-6, 3, T_TPUT_ONE },
	[V_TPUT_BATCH] = { "tput_batched", "batched M/s", "signals/s", 1e-6, 3, T_TPUT_BATCH },
	[V_FLOOD_GOT] = { "flood_arrived", "arrived", "signals", 1, 0, T_FLOOD },
	[V_FLOOD_REFUSED] = { "flood_refused", "refused", "signals", 1, 0, T_FLOOD },
	[V_SELF] = { "self_per_signal", "us/signal", "ns", 1e-3, 3, T_SELF },
	[V_FORK] = { "fork_p50", "p50 us", "ns", 1e-3, 1, T_FORK },
	[V_FORK_MEAN] = { "fork_mean", "mean us", "ns", 1e-3, 1, T_FORK },
};

static const char *const test_csv[NTEST] = {
	"roundtrip_pinned", "roundtrip_unpinned", "throughput_one", "throughput_batch", "flood", "self", "fork",
};

static int finite_vals(const struct bench *b, int v, int row, double *out)
{
	int n = 0;

	for (int r = 0; r < b->rounds_done; r++)
		if (!isnan(b->rows[row].val[v][r]))
			out[n++] = b->rows[row].val[v][r];
	return n;
}

double value_median(const struct bench *b, int v, int row)
{
	double tmp[MAXROUNDS];

	return median_of(tmp, finite_vals(b, v, row, tmp));
}

static double value_min(const struct bench *b, int v, int row, int want_max)
{
	double tmp[MAXROUNDS], x = NAN;
	int n = finite_vals(b, v, row, tmp);

	for (int i = 0; i < n; i++)
		if (isnan(x) || (want_max ? tmp[i] > x : tmp[i] < x))
			x = tmp[i];
	return x;
}

/* Quartiles by the median-of-halves rule; fine for a handful of rounds. */
double ratio_stats_to(const struct bench *b, int v, int row, int ref_row, double *lo, double *hi,
		      double *q1, double *q3)
{
	double rt[MAXROUNDS];
	int n = 0;

	for (int r = 0; r < b->rounds_done; r++) {
		double x = b->rows[row].val[v][r], ref = b->rows[ref_row].val[v][r];
		if (!isnan(x) && !isnan(ref) && ref > 0)
			rt[n++] = x / ref;
	}
	*lo = *hi = *q1 = *q3 = NAN;
	if (!n)
		return NAN;
	double med = median_of(rt, n); /* sorts rt */
	double half[MAXROUNDS];
	*lo = rt[0];
	*hi = rt[n - 1];
	memcpy(half, rt, sizeof(double) * (size_t)(n / 2 ? n / 2 : 1));
	*q1 = median_of(half, n / 2 ? n / 2 : 1);
	memcpy(half, rt + (n + 1) / 2 - (n == 1), sizeof(double) * (size_t)(n / 2 ? n / 2 : 1));
	*q3 = median_of(half, n / 2 ? n / 2 : 1);
	return med;
}

double ratio_stats(const struct bench *b, int v, int row, double *lo, double *hi, double *q1,
		   double *q3)
{
	return ratio_stats_to(b, v, row, 0, lo, hi, q1, q3);
}

static void fmt_val(char *buf, size_t n, double x, int v)
{
	if (isnan(x))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.*f", vi[v].prec, x * vi[v].scale);
}

static void fmt_ratio(char *buf, size_t n, const struct bench *b, int v, int row)
{
	double lo, hi, q1, q3, med = ratio_stats(b, v, row, &lo, &hi, &q1, &q3);

	if (isnan(med))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.2f [%.2f-%.2f]", med, lo, hi);
}

static const char *cell_note(const struct row *row, int t)
{
	return row->cell[t].st == C_OK ? NULL : row->cell[t].msg[0] ? row->cell[t].msg : "not run";
}

/* A table of one or two tests: per value a figure and its ratio. */
static void section(const struct bench *b, const char *title, const int *tests, const int *vals,
		    int nv)
{
	say("\n%s\n  %-15s", title, "mechanism");
	for (int k = 0; k < nv; k++)
		say(" %12s %-18s", vi[vals[k]].label, "ratio [min-max]");
	say("\n");
	for (int i = 0; i < b->nrows; i++) {
		const struct row *row = &b->rows[i];
		say("  %-15s", row->m->name);
		for (int k = 0; k < nv; k++) {
			char v[32], r[48];
			const char *note = cell_note(row, tests[k]);
			/* A note is said once however many columns it covers. */
			if (note) {
				const char *prev = k ? cell_note(row, tests[k - 1]) : NULL;
				if (!prev || strcmp(prev, note))
					say(" %s", note);
				continue;
			}
			fmt_val(v, sizeof v, value_median(b, vals[k], i), vals[k]);
			fmt_ratio(r, sizeof r, b, vals[k], i);
			say(" %12s %-18s", v, r);
		}
		say("\n");
	}
}

static void flood_section(const struct bench *b)
{
	say("\nLoss under flood: %ld signals queued at once by sigqueue() to a receiver that reads\n"
	    "only when the sender is done (median arrived over rounds; worst round; ratio to signalfd)\n",
	    b->cfg.flood_n);
	say("  %-15s %8s %8s %8s %-18s %s\n", "mechanism", "arrived", "worst", "refused",
	    "ratio [min-max]", "note");
	for (int i = 0; i < b->nrows; i++) {
		const struct row *row = &b->rows[i];
		const char *note = cell_note(row, T_FLOOD);
		char r[48];
		if (note) {
			say("  %-15s %s\n", row->m->name, note);
			continue;
		}
		fmt_ratio(r, sizeof r, b, V_FLOOD_GOT, i);
		say("  %-15s %8.0f %8.0f %8.0f %-18s %s\n", row->m->name, value_median(b, V_FLOOD_GOT, i),
		    value_min(b, V_FLOOD_GOT, i, 0), value_median(b, V_FLOOD_REFUSED, i), r,
		    row->m->flags & M_COALESCE ? "callbacks, not signals: coalesced"
		    : row->m->flags & M_VALUES ? "" : "counted, no values (no siginfo)");
	}
}

static const char *const mem_label[MEM_N] = { "fds", "sockets", "pipe fds", "threads", "anon KiB",
					      "VSZ KiB", "heap B" };

static void memory_section(const struct bench *b)
{
	say("\nMemory and descriptors per sigfd mode (%ld fds opened in a fresh process, one signal\n"
	    "through each; per fd = increment from fd 2 to %ld; per process = first fd less that)\n",
	    b->cfg.mem_fds, b->cfg.mem_fds);
	say("  %-15s %-12s", "mode", "");
	for (int k = 0; k < MEM_N; k++)
		say(" %9s", mem_label[k]);
	say("\n");
	for (int i = 0; i < n_memmodes; i++) {
		const struct memres *m = &b->mem_res[i];
		if (!b->mem_sel[i])
			continue;
		if (m->status != OUT_OK) {
			say("  %-15s %s%s\n", memmodes[i].name, m->status == OUT_FAIL ? "FAILED: " : "", m->msg);
			continue;
		}
		for (int w = 0; w < 2; w++) {
			say("  %-15s %-12s", w ? "" : memmodes[i].name, w ? "per fd" : "per process");
			for (int k = 0; k < MEM_N; k++)
				say(" %9.1f", w ? m->per_fd[k] : m->per_process[k]);
			say("\n");
		}
	}
}

static int rowidx(const struct bench *b, const char *name)
{
	for (int i = 0; i < b->nrows; i++)
		if (!strcmp(b->rows[i].m->name, name))
			return i;
	return -1;
}

static FILE *tcsv;

static void verdict(int v, const char *what, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void verdict(int v, const char *what, const char *fmt, ...)
{
	char detail[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof detail, fmt, ap);
	va_end(ap);
	say("  %-7s %s: %s\n", v > 0 ? "MET" : v == 0 ? "MISSED" : "n/a", what, detail);
	if (tcsv)
		fprintf(tcsv, "\"%s\",%s,\"%s\"\n", what, v > 0 ? "met" : v == 0 ? "missed" : "n/a", detail);
}

/* Why a row cannot be judged, or NULL. */
static const char *unjudgeable(const struct bench *b, int i, int t)
{
	if (i < 0)
		return "not in this run";
	if (b->rows[i].cell[t].st != C_OK)
		return b->rows[i].cell[t].msg[0] ? b->rows[i].cell[t].msg : "not run";
	return NULL;
}

/* mode's figure v over ref's (NULL: signalfd), per round, against limit. */
static void ratio_target(const struct bench *b, const char *mode, const char *ref, int v,
			 double limit, int upper)
{
	int i = rowidx(b, mode), j = ref ? rowidx(b, ref) : 0;
	char what[128];
	const char *why = unjudgeable(b, i, vi[v].test), *refwhy = unjudgeable(b, j, vi[v].test);

	snprintf(what, sizeof what, "%s %s ratio%s%s %s %.2f", mode, vi[v].name, ref ? " to " : "",
		 ref ? ref : "", upper ? "<=" : ">=", limit);
	if (why || refwhy) {
		verdict(-1, what, "%s%s", why ? "" : "reference: ", why ? why : refwhy);
		return;
	}
	double lo, hi, q1, q3, med = ratio_stats_to(b, v, i, j, &lo, &hi, &q1, &q3);
	if (isnan(med)) {
		verdict(-1, what, "no ratio");
		return;
	}
	verdict(upper ? med <= limit : med >= limit, what, "%.2f [%.2f-%.2f]", med, lo, hi);
}

static void loss_target(const struct bench *b, const char *mode)
{
	int i = rowidx(b, mode);
	char what[128];
	const char *why = unjudgeable(b, i, T_FLOOD);

	snprintf(what, sizeof what, "%s zero loss under flood", mode);
	if (why) {
		verdict(-1, what, "%s", why);
		return;
	}
	double worst = NAN;
	for (int r = 0; r < b->rounds_done; r++) {
		double lost = b->cfg.flood_n - b->rows[i].val[V_FLOOD_REFUSED][r] - b->rows[i].val[V_FLOOD_GOT][r];
		if (!isnan(lost) && (isnan(worst) || lost > worst))
			worst = lost;
	}
	verdict(worst == 0, what, "worst round lost %.0f of %ld", worst, b->cfg.flood_n);
}

static void faster_target(const struct bench *b, const char *mode, const char *lib)
{
	int i = rowidx(b, mode), j = rowidx(b, lib);
	char what[128];
	const char *why = unjudgeable(b, i, T_RTT_PIN);

	snprintf(what, sizeof what, "%s round trip (pinned p50) faster than %s", mode, lib);
	if (!why)
		why = unjudgeable(b, j, T_RTT_PIN);
	if (why) {
		verdict(-1, what, "%s", why);
		return;
	}
	double x = value_median(b, V_RTT_PIN_P50, i), y = value_median(b, V_RTT_PIN_P50, j);
	verdict(x < y, what, "%.2f us vs %.2f us", x / 1e3, y / 1e3);
}

static void targets(const struct bench *b)
{
	static const char *const modes[] = { "sigfd-local", "sigfd-share", "sigfd-kernel", "sigfd-native" };
	static const char *const libs[] = { "libuv", "libev", "libevent" };

	say("\nProject targets (measured, not asserted; ratio median [min-max] over rounds)\n");
	/* "Within 5%" is judged one-sided: slower by no more than 5%. */
	ratio_target(b, "sigfd-local", NULL, V_RTT_PIN_P50, 1.05, 1);
	ratio_target(b, "sigfd-local", NULL, V_TPUT_ONE, 0.95, 0);
	ratio_target(b, "sigfd-local", NULL, V_TPUT_BATCH, 0.95, 0);
	ratio_target(b, "sigfd-local", NULL, V_SELF, 1.05, 1);
	/* Share mode in user space: against the bare forwarding thread on
	 * the same transport (a socket) where a thread's hop is unavoidable,
	 * else against signalfd. */
	ratio_target(b, "sigfd-share", "forward-socket", V_RTT_PIN_P50, 1.10, 1);
	ratio_target(b, "sigfd-share-5000", "sigfd-share", V_RTT_PIN_P50, 1.20, 1);
	ratio_target(b, "sigfd-share", NULL, V_TPUT_ONE, 1.0, 0);
	ratio_target(b, "sigfd-share", NULL, V_TPUT_BATCH, 1.0, 0);
	ratio_target(b, "sigfd-share", "forward-socket", V_SELF, 1.2, 1);
	ratio_target(b, "sigfd-share", NULL, V_FORK, 1.2, 1);
	/* forward-socket's thread sits idle in read() between signals: a
	 * fork with share fds costs no more than one with a bare idle thread. */
	ratio_target(b, "sigfd-share", "forward-socket", V_FORK, 1.10, 1);
	/* The kernel's SFD_CREATOR (kernel/, issue 11): as close as local mode. */
	ratio_target(b, "sigfd-native", NULL, V_RTT_PIN_P50, 1.05, 1);
	ratio_target(b, "sigfd-native", NULL, V_TPUT_ONE, 0.95, 0);
	ratio_target(b, "sigfd-native", NULL, V_TPUT_BATCH, 0.95, 0);
	for (int k = 0; k < 4; k++)
		loss_target(b, modes[k]);
	for (int k = 0; k < 4; k++)
		for (int l = 0; l < 3; l++)
			faster_target(b, modes[k], libs[l]);
}

static FILE *open_out(const struct bench *b, const char *name)
{
	char path[600];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", b->cfg.out, name);
	if (!(f = fopen(path, "w")))
		perror(path);
	return f;
}

static void csv_files(const struct bench *b)
{
	FILE *f = open_out(b, "results.csv"), *g = open_out(b, "rounds.csv"), *m;

	if (f) {
		fprintf(f, "test,metric,unit,mechanism,status,rounds,median,min,max,"
			   "ratio_median,ratio_min,ratio_max,ratio_q1,ratio_q3,note\n");
		for (int v = 0; v < NVAL; v++)
			for (int i = 0; i < b->nrows; i++) {
				const struct row *row = &b->rows[i];
				const struct cell *c = &row->cell[vi[v].test];
				double tmp[MAXROUNDS], lo, hi, q1, q3;
				double med = ratio_stats(b, v, i, &lo, &hi, &q1, &q3);
				static const char *const st[] = { "not-run", "ok", "n/a", "unavailable", "failed" };
				if (!b->tests[vi[v].test])
					continue;
				if (v == V_FLOOD_REFUSED)
					med = lo = hi = q1 = q3 = NAN;
				fprintf(f, "%s,%s,%s,%s,%s,%d,%.6g,%.6g,%.6g,%.4f,%.4f,%.4f,%.4f,%.4f,\"%s\"\n",
					test_csv[vi[v].test], vi[v].name, vi[v].unit, row->m->name, st[c->st],
					finite_vals(b, v, i, tmp), value_median(b, v, i), value_min(b, v, i, 0),
					value_min(b, v, i, 1), med, lo, hi, q1, q3, c->msg);
			}
		fclose(f);
	}
	if (g) {
		fprintf(g, "round,metric,mechanism,value,ratio\n");
		for (int r = 0; r < b->rounds_done; r++)
			for (int v = 0; v < NVAL; v++)
				for (int i = 0; i < b->nrows; i++) {
					double x = b->rows[i].val[v][r], ref = b->rows[0].val[v][r];
					if (!isnan(x))
						fprintf(g, "%d,%s,%s,%.6g,%.4f\n", r + 1, vi[v].name, b->rows[i].m->name,
							x, ref > 0 ? x / ref : NAN);
				}
		fclose(g);
	}
	if (b->mem && (m = open_out(b, "memory.csv"))) {
		fprintf(m, "mode,scope,fds,sockets,pipe_fds,threads,anon_kib,vsz_kib,heap_bytes,status\n");
		for (int i = 0; i < n_memmodes; i++) {
			const struct memres *r = &b->mem_res[i];
			if (!b->mem_sel[i])
				continue;
			for (int w = 0; w < 2; w++) {
				const double *x = w ? r->per_fd : r->per_process;
				fprintf(m, "%s,%s", memmodes[i].name, w ? "per_fd" : "per_process");
				for (int k = 0; k < MEM_N; k++)
					fprintf(m, ",%.1f", r->status == OUT_OK ? x[k] : NAN);
				fprintf(m, ",\"%s\"\n", r->status == OUT_OK ? "ok" : r->msg);
			}
		}
		fclose(m);
	}
}

/* Plot data: one whitespace-separated file per panel, "-" where missing. */
static void plot_files(const struct bench *b)
{
	for (int w = 0; w < 2; w++) {
		FILE *f = open_out(b, w ? "latency_cdf_unpinned.dat" : "latency_cdf_pinned.dat");
		if (!f)
			continue;
		fprintf(f, "percentile");
		for (int i = 0; i < b->nrows; i++)
			if (b->rows[i].npool[w])
				fprintf(f, " %s", b->rows[i].m->name);
		fprintf(f, "\n");
		for (int i = 0; i < b->nrows; i++)
			if (b->rows[i].npool[w])
				qsort(b->rows[i].pool[w], b->rows[i].npool[w], sizeof(int64_t), cmp_i64);
		/* Steps of 0.5 up to p99, then 0.05 up to p99.9: the tail is where
		 * they differ; beyond it single preemptions stretch the axis. */
		for (int k = 0; k <= 216; k++) {
			double p = k <= 198 ? k / 2.0 : 99.0 + (k - 198) / 20.0;
			fprintf(f, "%.2f", p);
			for (int i = 0; i < b->nrows; i++)
				if (b->rows[i].npool[w])
					fprintf(f, " %.3f", pct_sorted(b->rows[i].pool[w], b->rows[i].npool[w], p) / 1e3);
			fprintf(f, "\n");
		}
		fclose(f);
	}
	FILE *f = open_out(b, "bars.dat");
	if (!f)
		return;
	fprintf(f, "mechanism one_per_call batched rtt_pinned_p50_us flood_arrived\n");
	for (int i = 0; i < b->nrows; i++) {
		double x[4] = {
			value_median(b, V_TPUT_ONE, i) / 1e6, value_median(b, V_TPUT_BATCH, i) / 1e6,
			value_median(b, V_RTT_PIN_P50, i) / 1e3, value_median(b, V_FLOOD_GOT, i),
		};
		fprintf(f, "%s", b->rows[i].m->name);
		for (int k = 0; k < 4; k++)
			fprintf(f, isnan(x[k]) ? " -" : " %.4f", x[k]);
		fprintf(f, "\n");
	}
	fclose(f);
}

static void header(const struct bench *b)
{
	struct utsname u;
	char model[200] = "?", line[300];
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "model name : %199[^\n]", model) == 1)
			break;
	if (f)
		fclose(f);
	uname(&u);
	say("sigfd-bench %s, %s\n", b->date, b->cfg.quick ? "QUICK (smoke test, figures are rough)" : "full run");
	say("machine: %ld CPUs, Linux %s, %s\n", sysconf(_SC_NPROCESSORS_ONLN), u.release, model);
	say("load average (1/5/15 min): %s at start, %s at end; %.0f s\n", b->load_start, b->load_end,
	    b->seconds);
	say("%d rounds, interleaved (order shuffled per test and round, seed %u); pinned tests on CPU %d\n",
	    b->rounds_done, b->cfg.seed, b->cfg.cpu);
	say("per round: round trip %ld pinned, %ld unpinned (after %ld warm-up); throughput %ld\n"
	    "signals (window %ld, ack every %ld, batch %d); flood %ld; self %ld; fork %ld (after %ld)\n",
	    b->cfg.rtt_pin_n, b->cfg.rtt_free_n, b->cfg.rtt_warm, b->cfg.tput_n, b->cfg.window,
	    b->cfg.ack_every, b->cfg.batch, b->cfg.flood_n, b->cfg.self_n, b->cfg.fork_n,
	    b->cfg.fork_warm);
	say("%s\n", b->sigpending_note);
	say("syscall floor here: getppid() %.0f ns, clock_gettime() %.0f ns\n", b->syscall_ns, b->clock_ns);
}

void report(struct bench *b)
{
	static const int rtt_t[] = { T_RTT_PIN, T_RTT_PIN }, rtt_v[] = { V_RTT_PIN_P50, V_RTT_PIN_P99 };
	static const int free_t[] = { T_RTT_FREE, T_RTT_FREE }, free_v[] = { V_RTT_FREE_P50, V_RTT_FREE_P99 };
	static const int tp_t[] = { T_TPUT_ONE, T_TPUT_BATCH }, tp_v[] = { V_TPUT_ONE, V_TPUT_BATCH };
	static const int self_t[] = { T_SELF }, self_v[] = { V_SELF };
	static const int fork_t[] = { T_FORK, T_FORK }, fork_v[] = { V_FORK, V_FORK_MEAN };
	char title[400];

	rep = open_out(b, "report.txt");
	header(b);
	if (b->tests[T_RTT_PIN]) {
		snprintf(title, sizeof title,
			 "Round trip, two processes pinned to CPU %d, each blocked in the mechanism\n"
			 "(us per round trip, median over rounds; ratio to signalfd in the same round)",
			 b->cfg.cpu);
		section(b, title, rtt_t, rtt_v, 2);
	}
	if (b->tests[T_RTT_FREE])
		section(b, "Round trip, unpinned (the scheduler places the two processes)", free_t, free_v, 2);
	if (b->tests[T_TPUT_ONE] || b->tests[T_TPUT_BATCH]) {
		snprintf(title, sizeof title,
			 "Throughput, sigqueue() with values 1..%ld to another process on the same CPU,\n"
			 "credit flow control, every value verified once and in order (where siginfo is\n"
			 "passed on; counted otherwise); one record per call, and batches of up to %d",
			 b->cfg.tput_n, b->cfg.batch);
		section(b, title, tp_t, tp_v, 2);
	}
	if (b->tests[T_FLOOD])
		flood_section(b);
	if (b->tests[T_SELF])
		section(b, "Cost per signal in one process: kill() to self, then dequeue (pinned)", self_t, self_v, 1);
	if (b->tests[T_FORK])
		section(b, "Cost of fork() + _exit() + waitpid() in a process with the mechanism set up\n"
			   "(pinned; one signal through it first, so share mode's thread runs; each fork\n"
			   "timed: median and mean per round, then median over rounds; forward-socket\n"
			   "is fork with a bare idle thread, share mode's reference)",
			fork_t, fork_v, 2);
	if (b->mem)
		memory_section(b);
	tcsv = open_out(b, "targets.csv");
	if (tcsv)
		fprintf(tcsv, "target,verdict,detail\n");
	targets(b);
	if (tcsv)
		fclose(tcsv);
	say("\nMechanisms:\n");
	for (int i = 0; i < b->nrows; i++)
		say("  %-15s %s\n", b->rows[i].m->name, b->rows[i].m->what);
	say("\nFiles: %s/{report.txt,results.csv,rounds.csv,targets.csv%s,*.dat}\n", b->cfg.out,
	    b->mem ? ",memory.csv" : "");
	csv_files(b);
	plot_files(b);
	if (rep)
		fclose(rep);
}
