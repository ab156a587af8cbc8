/* SPDX-License-Identifier: MIT */
/* sigfd-bench: shared types. A mechanism is a way for a process to wait
 * for a signal; every test drives it through the same small vtable, so the
 * only thing that differs between two rows of the table is the mechanism. */
#ifndef BENCH_H
#define BENCH_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* One received signal. value is the sigqueue() integer when the mechanism
 * passes siginfo on (M_VALUES), else 0. */
struct rec {
	int signo;
	int value;
};

#define M_VALUES   0x1 /* delivers the sigqueue() value: order is verified */
#define M_COALESCE 0x2 /* callbacks may stand for several signals: no count */
#define M_SIGFD    0x4 /* a sigfd mode: gets a memory row and targets */

struct mech {
	const char *name;
	const char *what; /* one line for --list and the table legend */
	unsigned flags;
	/* Non-NULL when the comparison was not compiled in: why. */
	const char *missing;
	/* Runs in a throwaway child before the rounds: 0, or -1 with a reason
	 * in why (for sigfd share and kernel modes, which may be ENOSYS).
	 * NULL means always available. */
	int (*probe)(char *why, size_t n);
	/* In the receiving process: start receiving signo. NULL and a reason
	 * in err on failure. */
	void *(*setup)(int signo, char *err, size_t n);
	/* Wait for signals: 1 or up to max records, -1 with errno on error, 0
	 * when timeout_ms (>= 0) passed. timeout_ms -1 blocks, and is the only
	 * value used while timing, so no test adds a poll() the user would not
	 * make. wait_batch is NULL where the mechanism cannot batch. */
	int (*wait_one)(void *st, struct rec *out, int timeout_ms);
	int (*wait_batch)(void *st, struct rec *out, int max, int timeout_ms);
	void (*teardown)(void *st);
};

/* Why an event-loop comparison is not in this binary (needs config.h). */
#define BENCH_MISSING(pkg)                                                  \
	(BENCH_NOLIBS ? "missing: built with BENCH_NOLIBS=1 (static binary)" \
		      : "missing: " pkg " not installed at build time (make bench-deps)")

extern const struct mech mech_signalfd, mech_signalfd_epoll, mech_sigwaitinfo,
	mech_selfpipe, mech_forward_thread, mech_forward_socket,
	mech_sigfd_local, mech_sigfd_share, mech_sigfd_share_5000, mech_sigfd_kernel, mech_sigfd_native,
	mech_libuv, mech_libev, mech_libev_signalfd, mech_libevent;

/* The signal every test uses: real-time, so it queues and carries a value. */
#define BENCH_SIG (SIGRTMIN + 2)

/* util.c */
int64_t now_ns(void);
int pin_to(int cpu);        /* this thread to one CPU; 0 or -1 */
int pick_cpu(void);         /* the CPU the pinned tests use */
void child_reset(void);     /* default dispositions, empty mask */
int block_sig(int signo);   /* add signo to this thread's blocked mask */
int write_all(int fd, const void *buf, size_t n);
int read_all(int fd, void *buf, size_t n); /* 0, or -1 (EOF counts) */
void errf(char *err, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* mech_signalfd.c: read records from any descriptor that yields
 * struct signalfd_siginfo (signalfd, every sigfd mode), completing a
 * partial record if a stream socket splits one. */
int fdrec_read(int fd, struct rec *out, int max, int timeout_ms);

/* util.c, for the callback libraries: hand out one of *pending counted
 * callbacks as a record without a value; 1, or 0 when none is pending. */
int take_counted(long *pending, int signo, struct rec *out);

/* stats.c */
int cmp_i64(const void *a, const void *b);
double pct_sorted(const int64_t *v, size_t n, double p);   /* 0..100 */
int cmp_double(const void *a, const void *b);
double median_of(double *v, int n); /* sorts v; NAN when n == 0 */

#endif

/* ---- the driver side ---- */

struct cfg {
	int quick, rounds, cpu, timeout_s, quiet_ms, batch;
	long rtt_pin_n, rtt_free_n, rtt_warm, tput_n, window, ack_every;
	long flood_n, self_n, fork_n, fork_warm, mem_fds;
	unsigned seed;
	const char *out;
};

/* tests.c: one measurement of one mechanism, each in fresh processes. */
enum outcome { OUT_OK, OUT_FAIL, OUT_UNAVAIL };

struct result {
	enum outcome status;
	char msg[256];
	double v[4];       /* test-specific figures, see each function */
	int64_t *samples;  /* round trips: sorted ns, malloc'd; caller frees */
	size_t nsamples;
};

int tests_init(const struct cfg *cfg);
/* v[0] p50 ns, v[1] p99 ns; samples set. */
void test_rtt(const struct mech *m, int pinned, struct result *r);
/* v[0] signals per second. */
void test_tput(const struct mech *m, int batch, struct result *r);
/* v[0] arrived, v[1] refused by sigqueue (EAGAIN), v[2] sent. */
void test_flood(const struct mech *m, struct result *r);
/* v[0] ns per signal. */
void test_self(const struct mech *m, struct result *r);
/* fork()+_exit()+waitpid() with the mechanism set up: v[0] median ns,
 * v[1] mean ns. */
void test_fork(const struct mech *m, struct result *r);
/* Availability probe in a throwaway child: OUT_OK or OUT_UNAVAIL + msg. */
void test_probe(const struct mech *m, struct result *r);

/* memory.c: what one sigfd mode costs; figures in struct memfig. */
enum { MEM_FDS, MEM_SOCKS, MEM_PIPES, MEM_THREADS, MEM_ANON_KIB, MEM_VSZ_KIB, MEM_HEAP_B, MEM_N };
struct memres {
	enum outcome status;
	char msg[256];
	double per_process[MEM_N], per_fd[MEM_N];
};
struct memmode {
	const char *name;
	int (*open)(int signo); /* fd or -1 with errno */
};
extern const struct memmode memmodes[];
extern const int n_memmodes;
void test_memory(const struct memmode *mm, long mem_fds, struct memres *r);
/* Used by memory.c to run its body in a child, with tests.c's plumbing. */
int run_in_child(int (*body)(void *arg, char *err, size_t n), void *arg,
		 void *out, size_t outn, char *msg, size_t msgn);
void *child_blob(void); /* where a body writes its output (1 KiB) */

/* ---- results: main.c fills them, report.c prints them ---- */

#define MAXROUNDS 64

enum { T_RTT_PIN, T_RTT_FREE, T_TPUT_ONE, T_TPUT_BATCH, T_FLOOD, T_SELF, T_FORK, NTEST };
enum {
	V_RTT_PIN_P50, V_RTT_PIN_P99, V_RTT_FREE_P50, V_RTT_FREE_P99,
	V_TPUT_ONE, V_TPUT_BATCH, V_FLOOD_GOT, V_FLOOD_REFUSED, V_SELF, V_FORK, V_FORK_MEAN, NVAL
};

enum cellstat { C_NONE, C_OK, C_NA, C_UNAVAIL, C_FAIL };

struct cell {
	enum cellstat st;
	char msg[300];
};

struct row {
	const struct mech *m;
	enum cellstat avail; /* C_OK or C_UNAVAIL, with availmsg */
	char availmsg[300];
	struct cell cell[NTEST];
	double val[NVAL][MAXROUNDS];
	int64_t *pool[2]; /* round-trip samples of every round: pinned, unpinned */
	size_t npool[2];
};

struct bench {
	struct cfg cfg;
	struct row rows[16];
	int nrows;
	int tests[NTEST];   /* which tests run */
	int mem;            /* memory test runs */
	struct memres mem_res[8];
	int mem_sel[8];     /* memmodes[i] was measured */
	int rounds_done;
	char sigpending_note[200];
	char load_start[64], load_end[64], date[64];
	double seconds;
	double syscall_ns, clock_ns; /* what a null syscall and a timestamp cost */
};

/* report.c */
void report(struct bench *b);     /* terminal table, report.txt, CSV, plot data */
double ratio_stats(const struct bench *b, int v, int row, double *lo, double *hi,
		   double *q1, double *q3);
/* The same against row ref instead of signalfd (row 0). */
double ratio_stats_to(const struct bench *b, int v, int row, int ref, double *lo, double *hi,
		      double *q1, double *q3);
double value_median(const struct bench *b, int v, int row);
