/* SPDX-License-Identifier: MIT */
/* The measurements. Each runs in freshly forked processes, so that one
 * mechanism's handlers, masks, threads and descriptors never reach the
 * next. Processes synchronise through pipes only: a child sets its
 * mechanism up, says so on the ready pipe, and waits on its go pipe for
 * the peer's pid. Results come back through a shared anonymous mapping.
 * The driver waits for the children with a signalfd for SIGCHLD and a
 * deadline, so a mechanism that loses a signal fails instead of hanging. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

struct side {
	int failed;
	long progress; /* how far it got, for a timeout message */
	char err[200];
};

struct shm {
	struct side side[2];
	int64_t t0, t1;
	long count, refused, retries;
	char blob[1024]; /* run_in_child's output */
	int64_t samples[];
};

static const struct cfg *C;
static struct shm *S;
static int chld_fd = -1; /* signalfd for SIGCHLD, driver only */

int tests_init(const struct cfg *cfg)
{
	sigset_t set;
	long max = cfg->rtt_pin_n > cfg->rtt_free_n ? cfg->rtt_pin_n : cfg->rtt_free_n;

	if (cfg->fork_n > max)
		max = cfg->fork_n;
	size_t len = sizeof *S + (size_t)max * sizeof S->samples[0];

	C = cfg;
	S = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (S == MAP_FAILED)
		return -1;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return -1;
	chld_fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	return chld_fd < 0 ? -1 : 0;
}

/* What a child knows. */
struct ctx {
	const struct mech *m;
	int side, batch;
	long n; /* round trips for test_rtt */
	int ready_w, go_r, ack_r, ack_w, fin_r, fin_w;
	pid_t peer;
	void *st;
};

typedef int (*role_fn)(struct ctx *c);

static int fail(struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct ctx *c, const char *fmt, ...)
{
	va_list ap;
	struct side *sd = &S->side[c->side];

	if (!sd->failed) {
		va_start(ap, fmt);
		vsnprintf(sd->err, sizeof sd->err, fmt, ap);
		va_end(ap);
		sd->failed = 1;
	}
	return -1;
}

/* Set the mechanism up (when setup), report ready, learn the peer. */
static int ready(struct ctx *c, int setup)
{
	if (setup) {
		char err[200];
		c->st = c->m->setup(BENCH_SIG, err, sizeof err);
		if (!c->st) {
			fail(c, "%s", err);
			write_all(c->ready_w, "F", 1);
			return -1;
		}
	}
	if (write_all(c->ready_w, "R", 1) < 0 || read_all(c->go_r, &c->peer, sizeof c->peer) < 0)
		return fail(c, "lost the driver");
	return 0;
}

/* sigqueue that waits out a full queue (EAGAIN: RLIMIT_SIGPENDING is per
 * user, and other users of the machine count against it). */
static int send_val(pid_t to, int v)
{
	union sigval sv;

	/* Every byte defined: sival_int covers half of the union. */
	memset(&sv, 0, sizeof sv);
	sv.sival_int = v;

	while (sigqueue(to, BENCH_SIG, sv) < 0) {
		if (errno != EAGAIN)
			return -1;
		S->retries++;
		sched_yield();
	}
	return 0;
}

static int check(struct ctx *c, const struct rec *r, int want)
{
	if (r->signo != BENCH_SIG)
		return fail(c, "got signal %d, want %d", r->signo, BENCH_SIG);
	if ((c->m->flags & M_VALUES) && r->value != want)
		return fail(c, "got value %d, want %d (lost, duplicated or reordered)", r->value, want);
	return 0;
}

static int wait1(struct ctx *c, struct rec *r, int timeout_ms)
{
	int n = c->m->wait_one(c->st, r, timeout_ms);

	if (n < 0)
		return fail(c, "wait: %s", strerror(errno));
	return n;
}

/* ---- the plumbing ---- */

static void reap(pid_t *pid, int *status, int n, int killit)
{
	for (int i = 0; i < n; i++) {
		if (!pid[i])
			continue;
		if (killit)
			kill(pid[i], SIGKILL);
		while (waitpid(pid[i], &status[i], 0) < 0 && errno == EINTR)
			;
		pid[i] = 0;
	}
}

/* Waits for readable fd (or -1: none) or a child's exit, until deadline.
 * Returns 1 fd readable, 0 a child changed, -1 deadline. */
static int wait_fd_or_child(int fd, int64_t deadline)
{
	struct pollfd p[2] = { { .fd = chld_fd, .events = POLLIN }, { .fd = fd, .events = POLLIN } };
	struct signalfd_siginfo si;

	for (;;) {
		int64_t left = (deadline - now_ns()) / 1000000;
		if (left <= 0)
			return -1;
		int n = poll(p, fd >= 0 ? 2 : 1, (int)left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (p[0].revents) {
			while (read(chld_fd, &si, sizeof si) > 0)
				;
			return 0;
		}
		if (fd >= 0 && p[1].revents)
			return 1;
	}
}

static int alive(pid_t *pid, int *status, int n)
{
	int left = 0;

	for (int i = 0; i < n; i++) {
		if (!pid[i])
			continue;
		if (waitpid(pid[i], &status[i], WNOHANG) == pid[i])
			pid[i] = 0;
		else
			left++;
	}
	return left;
}

static void child_message(int n, int *status, struct result *r)
{
	for (int i = 0; i < n; i++)
		if (S->side[i].failed) {
			snprintf(r->msg, sizeof r->msg, "%s", S->side[i].err);
			return;
		}
	for (int i = 0; i < n; i++) {
		if (WIFSIGNALED(status[i])) {
			snprintf(r->msg, sizeof r->msg, "process %d killed by signal %d", i, WTERMSIG(status[i]));
			return;
		}
		if (WEXITSTATUS(status[i])) {
			snprintf(r->msg, sizeof r->msg, "process %d exited %d", i, WEXITSTATUS(status[i]));
			return;
		}
	}
}

/* Runs n (1 or 2) roles, side i in child i, pinned to C->cpu if asked. */
static void run(const struct mech *m, role_fn *roles, int n, int pinned, int batch,
		long count, struct result *r)
{
	int ready_p[2], go[2][2], ack[2], fin[2], status[2] = { 0, 0 };
	pid_t pid[2] = { 0, 0 };
	int64_t deadline = now_ns() + (int64_t)C->timeout_s * 1000000000;
	int nready = 0, bad = 0;

	memset(S, 0, sizeof *S);
	memset(r, 0, sizeof *r);
	if (pipe2(ready_p, O_CLOEXEC) < 0 || pipe2(go[0], O_CLOEXEC) < 0 ||
	    pipe2(go[1], O_CLOEXEC) < 0 || pipe2(ack, O_CLOEXEC) < 0 || pipe2(fin, O_CLOEXEC) < 0) {
		r->status = OUT_FAIL;
		snprintf(r->msg, sizeof r->msg, "pipe: %s", strerror(errno));
		return;
	}
	for (int i = 0; i < n; i++) {
		pid[i] = fork();
		if (pid[i] < 0) {
			pid[i] = 0;
			bad = 1;
			snprintf(r->msg, sizeof r->msg, "fork: %s", strerror(errno));
			break;
		}
		if (pid[i] == 0) {
			struct ctx c = {
				.m = m, .side = i, .batch = batch, .n = count,
				.ready_w = ready_p[1], .go_r = go[i][0],
				.ack_r = ack[0], .ack_w = ack[1], .fin_r = fin[0], .fin_w = fin[1],
			};
			close(chld_fd);
			child_reset();
			if (pinned && pin_to(C->cpu) < 0) {
				fail(&c, "sched_setaffinity: %s", strerror(errno));
				_exit(1);
			}
			_exit(roles[i](&c) == 0 ? 0 : 1);
		}
	}
	close(ready_p[1]);
	close(go[0][0]);
	close(go[1][0]);
	close(ack[0]);
	close(ack[1]);
	close(fin[0]);
	close(fin[1]);
	while (!bad && nready < n) {
		int w = wait_fd_or_child(ready_p[0], deadline);
		char b;
		if (w < 0) {
			bad = 1;
			snprintf(r->msg, sizeof r->msg, "setup timed out after %d s", C->timeout_s);
		} else if (w == 1 && read(ready_p[0], &b, 1) == 1) {
			if (b == 'F')
				bad = 1;
			nready++;
		} else if (w == 0 && alive(pid, status, n) < n) {
			bad = 1; /* a child died before it was ready */
		}
	}
	if (!bad) {
		write_all(go[0][1], &pid[n - 1], sizeof(pid_t));
		if (n > 1)
			write_all(go[1][1], &pid[0], sizeof(pid_t));
		while (alive(pid, status, n)) {
			if (wait_fd_or_child(-1, deadline) < 0) {
				bad = 1;
				snprintf(r->msg, sizeof r->msg,
					 "timed out after %d s (progress: %ld, %ld): a signal was lost?",
					 C->timeout_s, S->side[0].progress, S->side[1].progress);
				break;
			}
		}
	}
	reap(pid, status, n, bad);
	close(ready_p[0]);
	close(go[0][1]);
	close(go[1][1]);
	for (int i = 0; i < n; i++)
		if (S->side[i].failed || !WIFEXITED(status[i]) || WEXITSTATUS(status[i]))
			bad = 1;
	if (bad) {
		r->status = OUT_FAIL;
		if (!r->msg[0] || S->side[0].failed || S->side[1].failed)
			child_message(n, status, r);
	}
}

/* ---- round trip ---- */

static int rtt_ping(struct ctx *c)
{
	struct rec rec;
	long warm = C->rtt_warm, n = c->n;

	if (ready(c, 1) < 0)
		return -1;
	for (long i = -warm; i < n; i++) {
		int64_t t = now_ns();
		if (send_val(c->peer, (int)i) < 0)
			return fail(c, "sigqueue: %s", strerror(errno));
		if (wait1(c, &rec, -1) != 1 || check(c, &rec, (int)i) < 0)
			return -1;
		if (i >= 0)
			S->samples[i] = now_ns() - t;
		S->side[0].progress = i;
	}
	return 0;
}

static int rtt_pong(struct ctx *c)
{
	struct rec rec;
	long warm = C->rtt_warm, n = c->n;

	if (ready(c, 1) < 0)
		return -1;
	for (long i = -warm; i < n; i++) {
		if (wait1(c, &rec, -1) != 1 || check(c, &rec, (int)i) < 0)
			return -1;
		if (send_val(c->peer, (int)i) < 0)
			return fail(c, "sigqueue: %s", strerror(errno));
		S->side[1].progress = i;
	}
	return 0;
}

void test_rtt(const struct mech *m, int pinned, struct result *r)
{
	role_fn roles[2] = { rtt_ping, rtt_pong };
	long n = pinned ? C->rtt_pin_n : C->rtt_free_n;

	run(m, roles, 2, pinned, 0, n, r);
	if (r->status != OUT_OK)
		return;
	r->samples = malloc((size_t)n * sizeof *r->samples);
	if (!r->samples) {
		r->status = OUT_FAIL;
		snprintf(r->msg, sizeof r->msg, "out of memory");
		return;
	}
	memcpy(r->samples, S->samples, (size_t)n * sizeof *r->samples);
	qsort(r->samples, (size_t)n, sizeof *r->samples, cmp_i64);
	r->nsamples = (size_t)n;
	r->v[0] = pct_sorted(r->samples, r->nsamples, 50);
	r->v[1] = pct_sorted(r->samples, r->nsamples, 99);
}

/* ---- throughput: credit-based flow control ----
 * The sender keeps at most window signals unacknowledged; the receiver
 * writes its running count to the ack pipe every ack_every records. The
 * window (256) is far below every queue involved (the pipe of self-pipe
 * holds 512 siginfo_t, libuv's 4,096 messages), so no mechanism is ever
 * asked to drop anything and every value must arrive once, in order. */

static int tput_recv(struct ctx *c)
{
	struct rec buf[64];
	long got = 0;

	if (ready(c, 1) < 0)
		return -1;
	while (got < C->tput_n) {
		int k = c->batch ? c->m->wait_batch(c->st, buf, C->batch, -1)
				 : c->m->wait_one(c->st, buf, -1);
		if (k <= 0)
			return fail(c, "wait: %s", k < 0 ? strerror(errno) : "nothing");
		for (int i = 0; i < k; i++) {
			if (check(c, &buf[i], (int)(got + 1)) < 0)
				return -1;
			got++;
			if (got % C->ack_every == 0 || got == C->tput_n)
				if (write_all(c->ack_w, &got, sizeof got) < 0)
					return fail(c, "ack pipe");
		}
		S->side[0].progress = got;
	}
	S->t1 = now_ns();
	S->count = got;
	return 0;
}

static int tput_send(struct ctx *c)
{
	long sent = 0, acked = 0, acks[64];

	if (ready(c, 0) < 0)
		return -1;
	S->t0 = now_ns();
	while (sent < C->tput_n) {
		if (sent - acked >= C->window) {
			ssize_t k = read(c->ack_r, acks, sizeof acks);
			if (k < 0 && errno == EINTR)
				continue;
			if (k < (ssize_t)sizeof acks[0])
				return fail(c, "ack pipe closed at %ld acked", acked);
			acked = acks[k / (ssize_t)sizeof acks[0] - 1];
			continue;
		}
		if (send_val(c->peer, (int)(sent + 1)) < 0)
			return fail(c, "sigqueue: %s", strerror(errno));
		sent++;
		S->side[1].progress = sent;
	}
	return 0;
}

void test_tput(const struct mech *m, int batch, struct result *r)
{
	role_fn roles[2] = { tput_recv, tput_send };

	run(m, roles, 2, 1, batch, 0, r);
	if (r->status == OUT_OK)
		r->v[0] = (double)S->count / ((double)(S->t1 - S->t0) / 1e9);
}

/* ---- loss under flood: no flow control ----
 * The receiver sets up, then does not read until the sender has queued
 * flood_n signals and said so on the fin pipe. Blocked-signal mechanisms
 * keep them in the kernel queue; handler designs run their handler for
 * each and overflow whatever buffer the handler writes to. */

static int flood_recv(struct ctx *c)
{
	struct rec buf[64];
	long sent, got = 0;

	if (ready(c, 1) < 0)
		return -1;
	if (read_all(c->fin_r, &sent, sizeof sent) < 0)
		return fail(c, "fin pipe");
	for (;;) {
		int k = c->m->wait_batch ? c->m->wait_batch(c->st, buf, C->batch, C->quiet_ms)
					 : c->m->wait_one(c->st, buf, C->quiet_ms);
		if (k < 0)
			return fail(c, "wait: %s", strerror(errno));
		if (k == 0)
			break; /* quiet: whatever was lost is lost */
		got += k;
		S->side[0].progress = got;
	}
	S->count = got;
	return 0;
}

static int flood_send(struct ctx *c)
{
	long accepted = 0;

	if (ready(c, 0) < 0)
		return -1;
	for (long i = 1; i <= C->flood_n; i++) {
		union sigval sv;
		memset(&sv, 0, sizeof sv);
		sv.sival_int = (int)i;
		if (sigqueue(c->peer, BENCH_SIG, sv) == 0)
			accepted++;
		else if (errno == EAGAIN)
			S->refused++;
		else
			return fail(c, "sigqueue: %s", strerror(errno));
	}
	if (write_all(c->fin_w, &accepted, sizeof accepted) < 0)
		return fail(c, "fin pipe");
	return 0;
}

void test_flood(const struct mech *m, struct result *r)
{
	role_fn roles[2] = { flood_recv, flood_send };

	run(m, roles, 2, 1, 0, 0, r);
	if (r->status == OUT_OK) {
		r->v[0] = (double)S->count;
		r->v[1] = (double)S->refused;
		r->v[2] = (double)C->flood_n;
	}
}

/* ---- one process: kill to self, then dequeue ---- */

static int self_role(struct ctx *c)
{
	struct rec rec;
	pid_t me = getpid();

	if (ready(c, 1) < 0)
		return -1;
	for (long i = -C->rtt_warm; i < C->self_n; i++) {
		if (i == 0)
			S->t0 = now_ns();
		if (kill(me, BENCH_SIG) < 0)
			return fail(c, "kill: %s", strerror(errno));
		if (wait1(c, &rec, -1) != 1)
			return -1;
		if (rec.signo != BENCH_SIG)
			return fail(c, "got signal %d, want %d", rec.signo, BENCH_SIG);
		S->side[0].progress = i;
	}
	S->t1 = now_ns();
	return 0;
}

void test_self(const struct mech *m, struct result *r)
{
	role_fn roles[1] = { self_role };

	run(m, roles, 1, 1, 0, 0, r);
	if (r->status == OUT_OK)
		r->v[0] = (double)(S->t1 - S->t0) / (double)C->self_n;
}

/* ---- one process: fork()+_exit()+waitpid() with the mechanism set up ----
 * What every fork costs a program that uses the mechanism: its fork
 * handlers and threads included (share mode's forwarding thread runs: one
 * signal goes through first). The child exits at once; its cost is the
 * copy of the process and whatever the handlers do in it. */

static int fork_once(struct ctx *c)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return fail(c, "fork: %s", strerror(errno));
	if (pid == 0)
		_exit(0);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return fail(c, "waitpid: %s", strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return fail(c, "forked child ended with status 0x%x", status);
	return 0;
}

static int fork_role(struct ctx *c)
{
	struct rec rec;

	if (ready(c, 1) < 0)
		return -1;
	if (kill(getpid(), BENCH_SIG) < 0)
		return fail(c, "kill: %s", strerror(errno));
	if (wait1(c, &rec, -1) != 1)
		return -1;
	if (rec.signo != BENCH_SIG)
		return fail(c, "got signal %d, want %d", rec.signo, BENCH_SIG);
	for (long i = -C->fork_warm; i < C->fork_n; i++) {
		int64_t t = now_ns();
		if (fork_once(c) < 0)
			return -1;
		if (i >= 0)
			S->samples[i] = now_ns() - t;
		S->side[0].progress = i;
	}
	return 0;
}

void test_fork(const struct mech *m, struct result *r)
{
	role_fn roles[1] = { fork_role };
	size_t n = (size_t)C->fork_n;
	double sum = 0;

	run(m, roles, 1, 1, 0, 0, r);
	if (r->status != OUT_OK)
		return;
	for (size_t i = 0; i < n; i++)
		sum += (double)S->samples[i];
	qsort(S->samples, n, sizeof S->samples[0], cmp_i64);
	r->v[0] = pct_sorted(S->samples, n, 50);
	r->v[1] = sum / (double)n;
}

/* ---- availability ---- */

static int probe_role(struct ctx *c)
{
	char why[200];

	if (c->m->probe(why, sizeof why) < 0) {
		fail(c, "%s", why);
		write_all(c->ready_w, "F", 1);
		return -1;
	}
	return ready(c, 0);
}

void test_probe(const struct mech *m, struct result *r)
{
	role_fn roles[1] = { probe_role };

	memset(r, 0, sizeof *r);
	if (m->missing) {
		r->status = OUT_UNAVAIL;
		snprintf(r->msg, sizeof r->msg, "%s", m->missing);
		return;
	}
	if (!m->probe)
		return;
	run(m, roles, 1, 0, 0, 0, r);
	if (r->status != OUT_OK)
		r->status = OUT_UNAVAIL;
}

/* ---- generic body in a child, for memory.c ---- */

static int (*body_fn)(void *, char *, size_t);
static void *body_arg;

static int body_role(struct ctx *c)
{
	char err[200];

	if (ready(c, 0) < 0)
		return -1;
	if (body_fn(body_arg, err, sizeof err) < 0)
		return fail(c, "%s", err);
	return 0;
}

int run_in_child(int (*body)(void *arg, char *err, size_t n), void *arg,
		 void *out, size_t outn, char *msg, size_t msgn)
{
	role_fn roles[1] = { body_role };
	struct result r;

	body_fn = body;
	body_arg = arg;
	run(&mech_signalfd, roles, 1, 1, 0, 0, &r);
	if (r.status != OUT_OK) {
		snprintf(msg, msgn, "%s", r.msg);
		return -1;
	}
	memcpy(out, S->blob, outn < sizeof S->blob ? outn : sizeof S->blob);
	return 0;
}

void *child_blob(void)
{
	return S->blob;
}
