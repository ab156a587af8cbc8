/* SPDX-License-Identifier: MIT */
/* The share-mode soak driver (docs/testing.md, "Soak"). Each round:
 *   creator  (forked by this driver, which stays single-threaded so the
 *            round's processes start their threads after a fork of a
 *            one-thread process, as ThreadSanitizer needs) blocks the
 *            signals, opens 2-4 "counted" share fds, hands them to the
 *            readers over AF_UNIX and, in some rounds, to a reader child of
 *            its own by fork; then threads move the counted real-time
 *            signals between those fds (sigfd_setmask), open and close
 *            extra share fds, and fork children that _exit or exec
 *            /bin/true. The round ends with the creator's exit() (after
 *            every value sent was read), SIGKILL, or exec of this program.
 *   senders  queue counted real-time signals at the creator with a value
 *            (signal, sender, sequence number), and a few uncounted ones.
 *   readers  several threads each read and poll (poll, epoll, blocking
 *            read, non-blocking read, through a dup) the same fds, check
 *            each record and report each value to the driver.
 * Left to the program: SIGWINCH is in the first counted fd's mask, but a
 * thread of the creator leaves it unblocked with a handler, and senders send
 * it now and then: the kernel delivers it to that thread, and no reader may
 * ever read a record of it (sigfd(3): the forwarding thread never takes a
 * signal another thread leaves unblocked and acts on).
 * Routing checked: a counted signal is in the mask of exactly one counted
 * fd at a time (a move removes it from one mask before adding it to the
 * other), extra fds never hold one, so a value reaches exactly one fd.
 * Checked: every value read at most once (duplicated), in order per sender
 * and signal within each thread's reads of one fd (the pipe is FIFO), no
 * value missing before a later one of the same sender and signal (lost),
 * and after exit() every value sent read; no read returns data once a
 * reader saw end of file; readers see end of file when the creator goes;
 * at each round's end no fd, forwarding thread or child left here. Values
 * missing at the end of a killed or exec'd creator's run were never taken
 * from its queue, or were in the batch an exec interrupts (docs/design.md):
 * "not delivered (creator gone)". The same seed gives the same rounds (the
 * operations, not their interleaving); a failure prints the command that
 * replays its round. */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>

#include "../tests/share_util.h"

#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x8
#endif

#define NCOUNT 6         /* counted real-time signals */
#define MAXFD 4          /* counted share fds */
#define MAXREADERS 3     /* reader processes forked by the driver */
#define MAXTHREADS 4     /* threads per reader process */
#define MAXSEND 4        /* sender processes */
#define SEQ_BITS 22
#define SENDER_SHIFT SEQ_BITS
#define SIG_SHIFT 26
#define RECORD ((ssize_t)sizeof(struct sigfd_siginfo))
#define EXEC_STATUS 3    /* the exec'd image's exit status */

/* Uncounted: standard signals (they coalesce) and real-time ones for the
 * extra share fds. */
enum { STD_USR1, STD_USR2, OTHER_RT1, OTHER_RT2, NUNCOUNTED };
/* In a mask, but left unblocked with a handler by a creator thread. */
#define LEFT_SIG SIGWINCH
static int counted_sig(int k) { return SIGRTMIN + 2 + k; }
static int uncounted_sig(int u)
{
	static const int std[2] = { SIGUSR1, SIGUSR2 };
	return u < 2 ? std[u] : SIGRTMIN + 2 + NCOUNT + (u - 2);
}

enum death { DIE_EXIT, DIE_KILL, DIE_EXEC };
static const char *const death_name[] = { "exit()", "SIGKILL", "exec" };

/* --- random numbers: one stream per (seed, round, role, index) --- */
struct rng { uint64_t s; };
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}
static struct rng rng_for(uint64_t seed, unsigned round, unsigned role, unsigned idx)
{
	struct rng r = { mix(mix(mix(seed) ^ round) ^ ((uint64_t)role << 32 | idx)) | 1 };
	return r;
}
static unsigned rnd(struct rng *r, unsigned n)
{
	r->s ^= r->s << 13;
	r->s ^= r->s >> 7;
	r->s ^= r->s << 17;
	return n ? (unsigned)(r->s % n) : 0;
}

/* --- what a round is, all from (seed, round) --- */
struct round {
	unsigned no;
	int nfd, nreaders, threads[MAXREADERS], nsenders, inherit;
	int quota[MAXSEND];      /* values each sender queues */
	unsigned long flags[MAXFD];
	int owner[NCOUNT];       /* the counted fd first holding each signal */
	enum death death;
	long trigger;            /* kill/exec once this many values were read */
};

static uint64_t seed;
static int per_sender = 3000, timeout_s = 30, verbose;
static char self_exe[4096];

static void plan(struct round *p, unsigned no)
{
	struct rng r = rng_for(seed, no, 'p', 0);
	long total = 0;

	memset(p, 0, sizeof *p);
	p->no = no;
	p->nfd = 2 + (int)rnd(&r, MAXFD - 1);
	p->nreaders = 1 + (int)rnd(&r, MAXREADERS);
	for (int i = 0; i < p->nreaders; i++)
		p->threads[i] = 2 + (int)rnd(&r, MAXTHREADS - 1);
	p->inherit = (int)rnd(&r, 2);
	p->nsenders = 2 + (int)rnd(&r, MAXSEND - 1);
	for (int i = 0; i < p->nsenders; i++) {
		p->quota[i] = per_sender / 2 + (int)rnd(&r, (unsigned)per_sender / 2 + 1);
		total += p->quota[i];
	}
	for (int i = 0; i < p->nfd; i++)
		p->flags[i] = SIGFD_SHARE | (rnd(&r, 2) ? SIGFD_NONBLOCK : 0) | (rnd(&r, 2) ? SIGFD_CLOEXEC : 0);
	for (int k = 0; k < NCOUNT; k++)
		p->owner[k] = k < p->nfd ? k : (int)rnd(&r, (unsigned)p->nfd);
	p->death = (enum death)rnd(&r, 3);
	p->trigger = (long)rnd(&r, (unsigned)total + 1);
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static unsigned cur_round;
static pid_t driver_pid, round_pgid;

static void reap_all_bounded(void);

/* A failure: what and where, the seed and the command replaying the round.
 * In the driver the round's processes are killed and reaped first. */
static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fail(const char *fmt, ...)
{
	va_list ap;
	char msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "soak[%d]: round %u: %s\n", (int)getpid(), cur_round, msg);
	if (getpid() != driver_pid)
		_exit(1);
	if (round_pgid > 0) {
		kill(-round_pgid, SIGKILL);
		reap_all_bounded();
	}
	fprintf(stderr, "soak: FAILED, seed %llu; replay: %s --seed %llu --round %u --rounds 1 --values %d\n",
		(unsigned long long)seed, self_exe, (unsigned long long)seed, cur_round, per_sender);
	leak_check_off();
	exit(1);
}

#define MUST(cond) do { if (!(cond)) fail("%s:%d: %s (errno %d: %s)", __FILE__, __LINE__, #cond, errno, strerror(errno)); } while (0)

static void write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		MUST(w > 0);
		p += w;
		n -= (size_t)w;
	}
}

/* A read of the current contents without waiting, whatever O_NONBLOCK the
 * shared file description has. A kernel backend's fd has no RWF_NOWAIT;
 * the creator makes those nonblocking when it opens them. */
static ssize_t read_nowait(int fd, void *buf, size_t n)
{
	struct iovec v = { .iov_base = buf, .iov_len = n };
	ssize_t got = syscall(SYS_preadv2, fd, &v, 1, -1L, -1L, RWF_NOWAIT);
	return got < 0 && errno == EOPNOTSUPP ? read(fd, buf, n) : got;
}

/* ------------------------------------------------------------------ */
/* Readers. Messages to the driver are words: a header (type << 24 | n)
 * and n words, each written whole (under PIPE_BUF, so atomic). */
enum { MSG_VALUES = 1, MSG_TALLY = 2, MSG_SENT = 3 };
#define MAX_BATCH 32 /* records per read: the buffer is 128 to 4096 bytes */

struct reader {
	int nfd, fd[MAXFD], ep, report, may_block;
	atomic_bool eof[MAXFD];
	atomic_int eofs;
	atomic_flag token;       /* one thread at a time may block in read() */
	atomic_long counted, uncounted[NUNCOUNTED], reads;
	struct rng rng[MAXTHREADS];
};

struct reader_thread {
	struct reader *rd;
	struct rng r;
	int last[MAXFD][NCOUNT][MAXSEND]; /* newest sequence number seen */
};

static void take(struct reader_thread *t, int i, const struct sigfd_siginfo *rec, int n)
{
	uint32_t out[1 + MAX_BATCH];
	int nv = 0;

	for (int j = 0; j < n; j++) {
		int sig = (int)rec[j].ssi_signo, k = sig - counted_sig(0), v = rec[j].ssi_int;
		if (k >= 0 && k < NCOUNT) {
			int vk = v >> SIG_SHIFT, s = (v >> SENDER_SHIFT) & 0xf, seq = v & ((1 << SEQ_BITS) - 1);
			if (rec[j].ssi_code != SI_QUEUE || vk != k || s >= MAXSEND)
				fail("reader: fd %d: signal %d, code %d, value %#x: not one a sender queued", i, sig,
				     rec[j].ssi_code, (unsigned)v);
			if (seq <= t->last[i][k][s])
				fail("reader: fd %d: signal %d from sender %d: value %d after %d (out of order or duplicated)",
				     i, sig, s, seq, t->last[i][k][s]);
			t->last[i][k][s] = seq;
			out[1 + nv++] = (uint32_t)v;
			continue;
		}
		if (sig == LEFT_SIG)
			fail("reader: fd %d: signal %d, left unblocked with a handler by a creator thread, "
			     "was read from the fd", i, sig);
		int u = 0;
		while (u < NUNCOUNTED && uncounted_sig(u) != sig)
			u++;
		if (u == NUNCOUNTED)
			fail("reader: fd %d: signal %d, in no mask", i, sig);
		atomic_fetch_add(&t->rd->uncounted[u], 1);
	}
	if (nv) {
		out[0] = (uint32_t)(MSG_VALUES << 24 | nv);
		write_all(t->rd->report, out, sizeof out[0] * (size_t)(1 + nv));
		atomic_fetch_add(&t->rd->counted, nv);
	}
}

/* One read of fd i (its number: via, maybe a dup) of a random multiple of
 * 128 bytes, nowait or plain read(). */
static void read_fd(struct reader_thread *t, int i, int via, bool nowait)
{
	struct reader *rd = t->rd;
	struct sigfd_siginfo rec[MAX_BATCH];
	size_t size = (size_t)RECORD * (1 + rnd(&t->r, MAX_BATCH));
	bool eof_before = atomic_load(&rd->eof[i]);
	ssize_t n = nowait ? read_nowait(via, rec, size) : read(via, rec, size);

	if (n < 0) {
		if (errno != EAGAIN && errno != EINTR)
			fail("reader: read of fd %d: %s", i, strerror(errno));
		return;
	}
	atomic_fetch_add(&rd->reads, 1);
	if (n == 0) {
		if (!atomic_exchange(&rd->eof[i], true)) {
			atomic_fetch_add(&rd->eofs, 1);
			/* Gone already if another thread saw the end first. */
			if (epoll_ctl(rd->ep, EPOLL_CTL_DEL, rd->fd[i], NULL) < 0 && errno != ENOENT)
				fail("reader: epoll_ctl DEL: %s", strerror(errno));
		}
		return;
	}
	if (eof_before)
		fail("reader: fd %d: %zd bytes read after end of file", i, n);
	if (n % RECORD)
		fail("reader: fd %d: read %zd bytes, not whole records", i, n);
	take(t, i, rec, (int)(n / RECORD));
}

static int random_open(struct reader_thread *t)
{
	int open_fds[MAXFD], n = 0;
	for (int i = 0; i < t->rd->nfd; i++)
		if (!atomic_load(&t->rd->eof[i]))
			open_fds[n++] = i;
	return n ? open_fds[rnd(&t->r, (unsigned)n)] : -1;
}

static void *reader_loop(void *arg)
{
	struct reader_thread *t = arg;
	struct reader *rd = t->rd;

	while (atomic_load(&rd->eofs) < rd->nfd) {
		unsigned op = rnd(&t->r, 100);
		if (op < 35) { /* poll() every fd not at its end */
			struct pollfd p[MAXFD];
			int idx[MAXFD], n = 0, got;
			for (int i = 0; i < rd->nfd; i++)
				if (!atomic_load(&rd->eof[i])) {
					p[n] = (struct pollfd){ .fd = rd->fd[i], .events = POLLIN };
					idx[n++] = i;
				}
			got = poll(p, (nfds_t)n, 100);
			if (got < 0 && errno != EINTR)
				fail("reader: poll: %s", strerror(errno));
			for (int j = 0; got > 0 && j < n; j++)
				if (p[j].revents & (POLLIN | POLLHUP))
					read_fd(t, idx[j], rd->fd[idx[j]], true);
				else if (p[j].revents)
					fail("reader: poll: fd %d revents %#x", idx[j], (unsigned)p[j].revents);
		} else if (op < 70) { /* the process's epoll set, shared by its threads */
			struct epoll_event ev[MAXFD];
			int got = epoll_wait(rd->ep, ev, MAXFD, 100);
			if (got < 0 && errno != EINTR)
				fail("reader: epoll_wait: %s", strerror(errno));
			for (int j = 0; j < got; j++)
				read_fd(t, (int)ev[j].data.u32, rd->fd[ev[j].data.u32], true);
		} else if (op < 85) { /* read() as it comes: blocks if the fd is blocking */
			int i = random_open(t);
			if (i < 0)
				continue;
			if (rd->may_block && !atomic_flag_test_and_set(&rd->token)) {
				read_fd(t, i, rd->fd[i], false);
				atomic_flag_clear(&rd->token);
			} else {
				read_fd(t, i, rd->fd[i], true);
			}
		} else { /* through a descriptor of its own, opened and closed */
			int i = random_open(t), d;
			if (i < 0)
				continue;
			d = dup(rd->fd[i]);
			if (d < 0)
				fail("reader: dup: %s", strerror(errno));
			read_fd(t, i, d, true);
			MUST(close(d) == 0);
		}
	}
	return NULL;
}

/* A reader process: its threads (one in the creator's own reader child)
 * read until every fd ended, then it reports its tally. */
static void reader_run(struct reader *rd, int nthreads, uint64_t rseed)
{
	pthread_t tid[MAXTHREADS];
	static struct reader_thread th[MAXTHREADS];
	uint32_t tally[2 + NUNCOUNTED];

	rd->ep = epoll_create1(EPOLL_CLOEXEC);
	MUST(rd->ep >= 0);
	for (int i = 0; i < rd->nfd; i++) {
		struct epoll_event ev = { .events = EPOLLIN, .data.u32 = (uint32_t)i };
		MUST(epoll_ctl(rd->ep, EPOLL_CTL_ADD, rd->fd[i], &ev) == 0);
	}
	for (int k = 0; k < nthreads; k++) {
		th[k].rd = rd;
		th[k].r = rng_for(rseed, cur_round, 't', (unsigned)k);
		memset(th[k].last, 0xff, sizeof th[k].last); /* -1 */
	}
	if (nthreads == 1) {
		reader_loop(&th[0]);
	} else {
		for (int k = 0; k < nthreads; k++)
			MUST(pthread_create(&tid[k], NULL, reader_loop, &th[k]) == 0);
		for (int k = 0; k < nthreads; k++)
			MUST(pthread_join(tid[k], NULL) == 0);
	}
	tally[0] = (uint32_t)(MSG_TALLY << 24 | (1 + NUNCOUNTED));
	tally[1] = (uint32_t)atomic_load(&rd->counted);
	for (int u = 0; u < NUNCOUNTED; u++)
		tally[2 + u] = (uint32_t)atomic_load(&rd->uncounted[u]);
	write_all(rd->report, tally, sizeof tally);
	for (int i = 0; i < rd->nfd; i++)
		MUST(close(rd->fd[i]) == 0);
	MUST(close(rd->ep) == 0);
	MUST(close(rd->report) == 0);
}

/* ------------------------------------------------------------------ */
/* The fds of a round, made by the driver; each child closes those it
 * does not use. */
struct round_fds {
	int cmd[2], rep[2];              /* driver -> creator, creator -> driver */
	int sock[MAXREADERS][2];         /* fds to each reader */
	int rrep[MAXREADERS][2];         /* each reader -> driver */
	int irep[2];                     /* the creator's own reader -> driver */
	int srep[2], stop[2];            /* senders -> driver; closed: stop */
};
static struct round_fds rf;

static void close_round_fds_except(const int *keep, int nkeep)
{
	int *all = (int *)&rf;
	for (size_t j = 0; j < sizeof rf / sizeof(int); j++) {
		bool kept = false;
		for (int k = 0; k < nkeep; k++)
			kept |= all[j] == keep[k];
		if (all[j] >= 0 && !kept) {
			MUST(close(all[j]) == 0);
			all[j] = -1;
		}
	}
}

/* The driver keeps its ends only: the commands, the read ends of the
 * reports and, once the senders are forked, the stop (rf.srep and rf.stop
 * are -1 before). */
static void driver_keeps_only(int nreaders)
{
	int keep[4 + MAXREADERS + 1], nk = 0;

	keep[nk++] = rf.cmd[1];
	keep[nk++] = rf.rep[0];
	keep[nk++] = rf.srep[0];
	keep[nk++] = rf.stop[1];
	for (int i = 0; i < nreaders; i++)
		keep[nk++] = rf.rrep[i][0];
	keep[nk++] = rf.irep[0];
	close_round_fds_except(keep, nk);
}

static void make_pipe(int p[2])
{
	MUST(pipe2(p, O_CLOEXEC) == 0);
}

/* ------------------------------------------------------------------ */
/* The creator. */
static sigset_t all_sigs;
static struct creator {
	const struct round *p;
	int fd[MAXFD];
	sigset_t mask[MAXFD];
	int owner[NCOUNT];           /* the counted fd whose mask holds each */
	pthread_mutex_t lock;
	int stop[2];                 /* the workers' stop: closed */
	atomic_long forks, moves, extras;
	atomic_bool execing;         /* the main thread is in execv() */
} cr;

/* Wait up to ms for the stop; true when it came. */
static bool stopping(int ms)
{
	struct pollfd p = { .fd = cr.stop[0], .events = POLLIN };
	return poll(&p, 1, ms) > 0;
}

/* A kernel backend ends the exec'ing creator's fds at the exec's point of
 * no return, while the other threads run on until de_thread() kills them:
 * their mask changes then fail with EPERM (sigfd(3) ERRORS), and such a
 * thread waits for its end. */
static void creator_setmask(int fd, const sigset_t *mask, const char *what)
{
	if (sigfd_setmask(fd, mask) == 0)
		return;
	if (errno == EPERM && atomic_load(&cr.execing))
		for (;;)
			pause();
	fail("creator: sigfd_setmask(%s): %s", what, strerror(errno));
}

static void set_mask(int i)
{
	char what[16];

	snprintf(what, sizeof what, "fd %d", i);
	creator_setmask(cr.fd[i], &cr.mask[i], what);
}

/* Moves counted signals between counted fds (out of one mask, then into
 * another: never in two) and toggles uncounted ones in their masks. */
static void *mask_worker(void *arg)
{
	struct rng r = rng_for(seed, cur_round, 'm', (unsigned)(uintptr_t)arg);
	int nfd = cr.p->nfd;

	while (!stopping((int)rnd(&r, 3))) {
		MUST(pthread_mutex_lock(&cr.lock) == 0);
		unsigned op = rnd(&r, 10);
		if (op < 6) {
			int k = (int)rnd(&r, NCOUNT), from = cr.owner[k], to = (int)rnd(&r, (unsigned)nfd);
			sigdelset(&cr.mask[from], counted_sig(k));
			set_mask(from);
			sigaddset(&cr.mask[to], counted_sig(k));
			set_mask(to);
			cr.owner[k] = to;
			atomic_fetch_add(&cr.moves, 1);
		} else if (op < 9) {
			int i = (int)rnd(&r, (unsigned)nfd), s = uncounted_sig((int)rnd(&r, NUNCOUNTED));
			if (sigismember(&cr.mask[i], s) == 1)
				sigdelset(&cr.mask[i], s);
			else
				sigaddset(&cr.mask[i], s);
			set_mask(i);
		} else {
			set_mask((int)rnd(&r, (unsigned)nfd)); /* the same mask: waits for the writes */
		}
		MUST(pthread_mutex_unlock(&cr.lock) == 0);
	}
	return NULL;
}

/* Opens, changes, reads and closes extra share fds of uncounted signals. */
static void *extra_worker(void *arg)
{
	struct rng r = rng_for(seed, cur_round, 'x', (unsigned)(uintptr_t)arg);
	int open_fd[3] = { -1, -1, -1 };

	while (!stopping((int)rnd(&r, 3))) {
		int slot = (int)rnd(&r, 3);
		sigset_t m;
		sigemptyset(&m);
		for (int u = 0; u < NUNCOUNTED; u++)
			if (rnd(&r, 2))
				sigaddset(&m, uncounted_sig(u));
		if (open_fd[slot] < 0) {
			open_fd[slot] = sigfd(&m, SIGFD_SHARE | SIGFD_NONBLOCK | (rnd(&r, 2) ? SIGFD_CLOEXEC : 0));
			if (open_fd[slot] < 0)
				fail("creator: sigfd: %s", strerror(errno));
			atomic_fetch_add(&cr.extras, 1);
		} else if (rnd(&r, 2)) {
			creator_setmask(open_fd[slot], &m, "extra");
			struct sigfd_siginfo rec[4];
			if (read(open_fd[slot], rec, sizeof rec) < 0 && errno != EAGAIN)
				fail("creator: read(extra): %s", strerror(errno));
		} else {
			MUST(close(open_fd[slot]) == 0);
			open_fd[slot] = -1;
		}
	}
	for (int s = 0; s < 3; s++)
		if (open_fd[s] >= 0)
			MUST(close(open_fd[s]) == 0);
	return NULL;
}

/* Forks children that _exit() or exec /bin/true: nothing else, as a child
 * of a threaded process under the sanitizers may do (tests/check.h). */
static void *fork_worker(void *arg)
{
	struct rng r = rng_for(seed, cur_round, 'f', (unsigned)(uintptr_t)arg);

	while (!stopping((int)rnd(&r, 5))) {
		bool do_exec = rnd(&r, 2);
		pid_t c = fork();
		if (c < 0)
			fail("creator: fork: %s", strerror(errno));
		if (c == 0) {
			if (do_exec)
				execl("/bin/true", "true", (char *)NULL);
			_exit(0);
		}
		int st;
		while (waitpid(c, &st, 0) < 0)
			MUST(errno == EINTR);
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			fail("creator: child %d: status %#x", (int)c, st);
		atomic_fetch_add(&cr.forks, 1);
	}
	return NULL;
}

static atomic_long left_handled;

static void count_left(int sig)
{
	(void)sig;
	atomic_fetch_add(&left_handled, 1);
}

/* Leaves LEFT_SIG unblocked, with its handler, until the process ends;
 * says so on the pipe arg first. */
static void *left_worker(void *arg)
{
	int *ready = arg;
	sigset_t one;

	sigemptyset(&one);
	sigaddset(&one, LEFT_SIG);
	MUST(pthread_sigmask(SIG_UNBLOCK, &one, NULL) == 0);
	write_all(ready[1], "u", 1);
	for (;;)
		pause();
	return NULL;
}

static mode_t fd_mode(int fd)
{
	struct stat st;

	MUST(fstat(fd, &st) == 0);
	return st.st_mode;
}

static void creator_run(const struct round *p)
{
	int keep[2 + MAXREADERS + 1], nk = 0;
	pthread_t w[5];
	int nw = 0;
	char c;

	keep[nk++] = rf.cmd[0];
	keep[nk++] = rf.rep[1];
	for (int i = 0; i < p->nreaders; i++)
		keep[nk++] = rf.sock[i][0];
	keep[nk++] = rf.irep[1];
	close_round_fds_except(keep, nk);
	/* Every thread made later inherits this: the signals go to share fds
	 * or stay pending, never to an action. */
	MUST(sigprocmask(SIG_BLOCK, &all_sigs, NULL) == 0);
	cr.p = p;
	memcpy(cr.owner, p->owner, sizeof cr.owner);
	for (int i = 0; i < p->nfd; i++)
		sigemptyset(&cr.mask[i]);
	for (int k = 0; k < NCOUNT; k++)
		sigaddset(&cr.mask[p->owner[k]], counted_sig(k));
	sigaddset(&cr.mask[0], SIGUSR1);
	sigaddset(&cr.mask[0], LEFT_SIG);
	/* SA_NODEFER: while a handler runs, its signal is otherwise blocked
	 * in its thread, so blocked everywhere, and the forwarding thread may
	 * rightly take an instance sent then (sigfd(3) BUGS). */
	struct sigaction left = { .sa_handler = count_left, .sa_flags = SA_NODEFER };
	sigemptyset(&left.sa_mask);
	MUST(sigaction(LEFT_SIG, &left, NULL) == 0);
	for (int i = 0; i < p->nfd; i++) {
		struct stat st;
		cr.fd[i] = sigfd(&cr.mask[i], p->flags[i]);
		if (cr.fd[i] < 0)
			fail("creator: sigfd: %s", strerror(errno));
		/* A kernel backend's fd (not a pipe): a reader that finds it
		 * empty must not block, as RWF_NOWAIT does on a socket. */
		MUST(fstat(cr.fd[i], &st) == 0);
		if (!S_ISSOCK(st.st_mode))
			MUST(fcntl(cr.fd[i], F_SETFL, O_NONBLOCK) == 0);
	}
	/* A kernel backend reads the creator's queues as a signalfd in
	 * another thread would: a process-directed LEFT_SIG is readable there
	 * between its sending and its delivery to left_worker, the kernel's
	 * own rule. The rule tested here is the user-space backend's. */
	if (!S_ISSOCK(fd_mode(cr.fd[0]))) {
		sigdelset(&cr.mask[0], LEFT_SIG);
		MUST(sigfd_setmask(cr.fd[0], &cr.mask[0]) == 0);
	}
	if (p->inherit) {
		/* Forked while only the forwarding thread runs (it never
		 * allocates): a reader by inheritance, one thread. */
		pid_t c = fork();
		MUST(c >= 0);
		if (c == 0) {
			static struct reader rd;
			int k2[1] = { rf.irep[1] };
			close_round_fds_except(k2, 1);
			rd.nfd = p->nfd;
			memcpy(rd.fd, cr.fd, sizeof rd.fd);
			rd.report = rf.irep[1];
			rd.may_block = 0; /* a lone thread blocked on an idle fd would stall the drain */
			reader_run(&rd, 1, seed ^ 0x1000);
			_exit(0);
		}
		MUST(close(rf.irep[1]) == 0);
		rf.irep[1] = -1;
	}
	for (int i = 0; i < p->nreaders; i++) {
		for (int j = 0; j < p->nfd; j++)
			send_fd(rf.sock[i][0], cr.fd[j]);
		MUST(close(rf.sock[i][0]) == 0);
		rf.sock[i][0] = -1;
	}
	MUST(pthread_mutex_init(&cr.lock, NULL) == 0);
	make_pipe(cr.stop);
	MUST(pthread_create(&w[nw++], NULL, mask_worker, (void *)0) == 0);
	MUST(pthread_create(&w[nw++], NULL, mask_worker, (void *)1) == 0);
	MUST(pthread_create(&w[nw++], NULL, extra_worker, (void *)0) == 0);
	MUST(pthread_create(&w[nw++], NULL, extra_worker, (void *)1) == 0);
	MUST(pthread_create(&w[nw++], NULL, fork_worker, (void *)0) == 0);
	/* Never joined: it leaves LEFT_SIG unblocked to the end. Before it
	 * has, the signal is blocked everywhere and rightly forwarded: the
	 * senders start only after. */
	static int left_ready[2];
	pthread_t left_thread;
	make_pipe(left_ready);
	MUST(pthread_create(&left_thread, NULL, left_worker, left_ready) == 0);
	MUST(read(left_ready[0], &c, 1) == 1);
	MUST(close(left_ready[0]) == 0 && close(left_ready[1]) == 0);
	write_all(rf.rep[1], "r", 1);
	for (;;) {
		ssize_t n = read(rf.cmd[0], &c, 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n != 1)
			fail("creator: the driver's command pipe ended");
		if (c == 'x') { /* quiesce: every counted signal in one mask */
			MUST(close(cr.stop[1]) == 0);
			for (int i = 0; i < nw; i++)
				MUST(pthread_join(w[i], NULL) == 0);
			write_all(rf.rep[1], "q", 1);
		} else if (c == 'e') {
			MUST(close(cr.stop[0]) == 0);
			for (int i = 0; i < p->nfd; i++)
				MUST(close(cr.fd[i]) == 0);
			MUST(pthread_mutex_destroy(&cr.lock) == 0);
			exit(0); /* the library's exit: pending records written, then EOF */
		} else if (c == 'k') {
			char *argv[] = { "soak", "--exec-image", NULL };
			atomic_store(&cr.execing, true);
			execv(self_exe, argv);
			fail("creator: exec %s: %s", self_exe, strerror(errno));
		}
	}
}

/* ------------------------------------------------------------------ */
/* A sender: queues its quota of counted values at the creator (each to a
 * random counted signal, numbered per signal), and now and then an
 * uncounted signal, until done or told to stop. */
static void sender_run(const struct round *p, int id, pid_t creator)
{
	struct rng r = rng_for(seed, cur_round, 's', (unsigned)id);
	uint32_t msg[1 + NCOUNT + NUNCOUNTED] = { 0 };
	uint32_t *sent = &msg[1], *other = &msg[1 + NCOUNT];
	struct pollfd stop = { .fd = rf.stop[0], .events = POLLIN };
	int keep[2] = { rf.srep[1], rf.stop[0] };

	close_round_fds_except(keep, 2);
	for (int i = 0; i < p->quota[id]; i++) {
		if (i % 16 == 0 && poll(&stop, 1, 0) > 0)
			break;
		/* Not under ThreadSanitizer (its own handler runs with the
		 * signals blocked) nor valgrind (it keeps them blocked in the
		 * kernel outside system calls): there LEFT_SIG is blocked
		 * everywhere at times, as /proc shows the forwarding thread. */
		if (rnd(&r, 64) == 0 && !UNDER_TSAN && !under_valgrind())
			(void)kill(creator, LEFT_SIG);
		if (rnd(&r, 32) == 0) {
			int u = (int)rnd(&r, NUNCOUNTED), s = uncounted_sig(u);
			if ((u < 2 ? kill(creator, s) : sigqueue(creator, s, int_val(-1))) == 0)
				other[u]++;
		}
		int k = (int)rnd(&r, NCOUNT);
		int v = k << SIG_SHIFT | id << SENDER_SHIFT | (int)sent[k];
		while (sigqueue(creator, counted_sig(k), int_val(v)) != 0) {
			if (errno != EAGAIN)
				fail("sender %d: sigqueue: %s", id, strerror(errno));
			/* The creator's queue is full (RLIMIT_SIGPENDING): wait
			 * for room, or the stop. */
			if (poll(&stop, 1, 1) > 0)
				goto out;
		}
		sent[k]++;
	}
out:
	msg[0] = (uint32_t)(MSG_SENT << 24 | id << 16 | (NCOUNT + NUNCOUNTED));
	write_all(rf.srep[1], msg, sizeof msg);
	_exit(0);
}

/* ------------------------------------------------------------------ */
/* The driver. */
struct tally {
	long sent, delivered, lost, dup, gone, rounds, uncounted_sent, uncounted_read, deaths[3];
};
static struct tally total;

static unsigned char *seen[NCOUNT][MAXSEND]; /* times each value was read */

static char waiting_for[200];

static void reap_all_bounded(void)
{
	double end = now() + timeout_s;
	for (;;) {
		pid_t c = waitpid(-1, NULL, WNOHANG);
		if (c < 0 && errno == ECHILD)
			return;
		if (c <= 0 && now() > end) {
			fprintf(stderr, "soak: children left after %d s\n", timeout_s);
			return;
		}
		if (c <= 0)
			poll(NULL, 0, 5);
	}
}

static int fd_list(unsigned char *open_fds, int n)
{
	int count = 0;
	for (int fd = 0; fd < n; fd++) {
		open_fds[fd] = fcntl(fd, F_GETFD) >= 0;
		count += open_fds[fd];
	}
	return count;
}

static unsigned char fds_at_start[1024];

struct stream { int fd; uint32_t buf[1024]; size_t have; bool done, tallied; int who; };

/* Takes the complete messages in s, keeps a partial one for later. */
static void parse(struct stream *s, const struct round *p, long *delivered, long *dups, long unc_read[],
		  uint32_t sent[MAXSEND][NCOUNT + NUNCOUNTED], int *senders_in, int *tallies)
{
	size_t words = s->have / 4, at = 0;
	while (at < words) {
		uint32_t h = s->buf[at], n = h & 0xffff;
		int type = (int)(h >> 24);
		if (at + 1 + n > words)
			break;
		if (type == MSG_VALUES) {
			for (uint32_t j = 0; j < n; j++) {
				uint32_t v = s->buf[at + 1 + j];
				int k = (int)(v >> SIG_SHIFT), snd = (int)(v >> SENDER_SHIFT) & 0xf;
				int seq = (int)(v & ((1u << SEQ_BITS) - 1));
				if (k >= NCOUNT || snd >= p->nsenders || seq >= p->quota[snd])
					fail("value %#x read: never sent", v);
				if (seen[k][snd][seq]++ == 0) {
					(*delivered)++;
				} else if ((*dups)++ < 5) {
					fprintf(stderr, "soak: round %u: value %d of sender %d on signal %d read %d times\n",
						p->no, seq, snd, counted_sig(k), seen[k][snd][seq]);
				}
			}
		} else if (type == MSG_TALLY && n == 1 + NUNCOUNTED) {
			for (int u = 0; u < NUNCOUNTED; u++)
				unc_read[u] += s->buf[at + 2 + u];
			(*tallies)++;
		} else if (type == MSG_SENT && n == NCOUNT + NUNCOUNTED) {
			int id = (int)(h >> 16) & 0xff;
			memcpy(sent[id], &s->buf[at + 1], sizeof sent[id]);
			(*senders_in)++;
		} else {
			fail("message %#x from %s: not one of ours", h, s->who < 0 ? "the senders" : "a reader");
		}
		at += 1 + n;
	}
	memmove(s->buf, s->buf + at, s->have - at * 4);
	s->have -= at * 4;
}

static bool drain(struct stream *s)
{
	ssize_t n = read(s->fd, (char *)s->buf + s->have, sizeof s->buf - s->have);
	if (n < 0 && errno == EINTR)
		return true;
	MUST(n >= 0);
	s->have += (size_t)n;
	if (n == 0) {
		s->done = true;
		if (s->have)
			fail("a message cut short");
	}
	return n > 0;
}

/* The drain after exit() stalled: name the first values never read. */
static void report_missing(const struct round *p, uint32_t sent[MAXSEND][NCOUNT + NUNCOUNTED])
{
	int shown = 0;
	for (int k = 0; k < NCOUNT; k++)
		for (int s = 0; s < p->nsenders; s++)
			for (int q = 0; q < (int)sent[s][k]; q++)
				if (!seen[k][s][q] && shown++ < 5)
					fprintf(stderr, "soak: round %u: value %d of sender %d on signal %d not read\n", p->no, q, s,
						counted_sig(k));
}

static pid_t fork_into(pid_t group)
{
	pid_t c = fork();
	MUST(c >= 0);
	/* Both sides set it: whichever runs first, the child is in the group
	 * before anyone signals it. */
	if (c == 0)
		setpgid(0, group);
	else
		setpgid(c, group ? group : c);
	return c;
}

static void check_status(pid_t c, int st, const char *what, int want_exit, int want_sig)
{
	if (want_sig ? !(WIFSIGNALED(st) && WTERMSIG(st) == want_sig)
		     : !(WIFEXITED(st) && WEXITSTATUS(st) == want_exit))
		fail("%s %d: status %#x (wanted %s %d)", what, (int)c, st, want_sig ? "signal" : "exit",
		     want_sig ? want_sig : want_exit);
}

static void run_round(unsigned no)
{
	struct round p;
	pid_t creator, readers[MAXREADERS], senders[MAXSEND];
	struct stream st[MAXREADERS + 3];
	int ns = 0, senders_in = 0, tallies = 0, want_tallies;
	long delivered = 0, dups = 0, unc_read[NUNCOUNTED] = { 0 }, sent_total = 0;
	uint32_t sent[MAXSEND][NCOUNT + NUNCOUNTED];
	enum { RUN, QUIESCE, DRAIN, END } phase = RUN;
	bool triggered = false;
	double deadline;
	char c;

	cur_round = no;
	plan(&p, no);
	memset(sent, 0, sizeof sent);
	memset(&rf, -1, sizeof rf);
	for (int k = 0; k < NCOUNT; k++)
		for (int s = 0; s < p.nsenders; s++)
			MUST((seen[k][s] = calloc((size_t)p.quota[s], 1)) != NULL);
	if (verbose)
		fprintf(stderr, "round %u: %d fds, %d readers (+%d by fork), %d senders, death %s, trigger %ld\n", no,
			p.nfd, p.nreaders, p.inherit, p.nsenders, death_name[p.death], p.trigger);
	make_pipe(rf.cmd);
	make_pipe(rf.rep);
	for (int i = 0; i < p.nreaders; i++) {
		MUST(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, rf.sock[i]) == 0);
		make_pipe(rf.rrep[i]);
	}
	if (p.inherit)
		make_pipe(rf.irep);

	creator = fork_into(0);
	if (creator == 0)
		creator_run(&p);
	round_pgid = creator;
	for (int i = 0; i < p.nreaders; i++) {
		readers[i] = fork_into(creator);
		if (readers[i] == 0) {
			static struct reader rd;
			int keep[2] = { rf.sock[i][1], rf.rrep[i][1] };
			close_round_fds_except(keep, 2);
			rd.nfd = p.nfd;
			for (int j = 0; j < p.nfd; j++)
				rd.fd[j] = recv_fd(rf.sock[i][1]);
			MUST(close(rf.sock[i][1]) == 0);
			rd.report = rf.rrep[i][1];
			rd.may_block = 1;
			reader_run(&rd, p.threads[i], seed ^ (uint64_t)(i + 1));
			exit(0);
		}
	}
	driver_keeps_only(p.nreaders);
	for (int i = 0; i < p.nreaders; i++)
		st[ns++] = (struct stream){ .fd = rf.rrep[i][0], .who = i };
	if (p.inherit)
		st[ns++] = (struct stream){ .fd = rf.irep[0], .who = MAXREADERS };
	want_tallies = ns;

	deadline = now() + timeout_s;
	snprintf(waiting_for, sizeof waiting_for, "the creator's \"ready\"");
	for (;;) {
		struct pollfd pf = { .fd = rf.rep[0], .events = POLLIN };
		int n = poll(&pf, 1, 100);
		if (n > 0) {
			ssize_t r = read(rf.rep[0], &c, 1);
			if (r != 1 || c != 'r')
				fail("the creator ended before it was ready");
			break;
		}
		if (now() > deadline)
			fail("waited %d s for %s", timeout_s, waiting_for);
	}
	make_pipe(rf.srep);
	make_pipe(rf.stop);
	for (int i = 0; i < p.nsenders; i++) {
		senders[i] = fork_into(creator);
		if (senders[i] == 0)
			sender_run(&p, i, creator);
	}
	driver_keeps_only(p.nreaders);
	st[ns++] = (struct stream){ .fd = rf.srep[0], .who = -1 };

	/* One loop: read every report, act when the round's state says so. */
	deadline = now() + timeout_s;
	for (;;) {
		struct pollfd pf[MAXREADERS + 4];
		int map[MAXREADERS + 4], np = 0;
		bool progress = false, all_done = true;

		for (int i = 0; i < ns; i++)
			if (!st[i].done) {
				pf[np] = (struct pollfd){ .fd = st[i].fd, .events = POLLIN };
				map[np++] = i;
				all_done = false;
			}
		if (rf.rep[0] >= 0) {
			pf[np] = (struct pollfd){ .fd = rf.rep[0], .events = POLLIN };
			map[np++] = -1;
			all_done = false;
		}
		if (all_done)
			break;
		int n = poll(pf, (nfds_t)np, 100);
		MUST(n >= 0 || errno == EINTR);
		for (int j = 0; n > 0 && j < np; j++) {
			if (!pf[j].revents)
				continue;
			if (map[j] < 0) {
				ssize_t r = read(rf.rep[0], &c, 1);
				if (r == 1 && c == 'q' && phase == QUIESCE) {
					phase = DRAIN;
				} else if (r == 0) {
					if (p.death == DIE_EXIT ? phase != END : !triggered)
						fail("the creator ended unasked");
					MUST(close(rf.rep[0]) == 0);
					rf.rep[0] = -1;
				} else {
					fail("the creator said %d (%c)", (int)r, r == 1 ? c : ' ');
				}
				progress = true;
				continue;
			}
			int before = tallies;
			if (drain(&st[map[j]])) {
				parse(&st[map[j]], &p, &delivered, &dups, unc_read, sent, &senders_in, &tallies);
				st[map[j]].tallied |= tallies > before;
			} else if (st[map[j]].done && (st[map[j]].who < 0 ? senders_in < p.nsenders : !st[map[j]].tallied)) {
				fail("%s ended without its report (its failure is above)",
				     st[map[j]].who < 0 ? "a sender" : "a reader");
			}
			progress = true;
		}
		if (senders_in == p.nsenders && sent_total == 0)
			for (int s = 0; s < p.nsenders; s++)
				for (int k = 0; k < NCOUNT; k++)
					sent_total += sent[s][k];
		bool senders_done = senders_in == p.nsenders;
		if (p.death == DIE_EXIT) {
			if (phase == RUN && senders_done) {
				write_all(rf.cmd[1], "x", 1);
				phase = QUIESCE;
				snprintf(waiting_for, sizeof waiting_for, "the creator's workers to stop");
			}
			if (phase == DRAIN) {
				snprintf(waiting_for, sizeof waiting_for, "the readers to read all %ld values sent (%ld read)",
					 sent_total, delivered);
				if (delivered == sent_total) {
					write_all(rf.cmd[1], "e", 1);
					phase = END;
					triggered = true;
				}
			}
		} else if (!triggered && (delivered >= p.trigger || (senders_done && delivered == sent_total))) {
			if (p.death == DIE_KILL)
				MUST(kill(creator, SIGKILL) == 0);
			else
				write_all(rf.cmd[1], "k", 1);
			triggered = true;
			phase = END;
		} else if (!triggered) {
			snprintf(waiting_for, sizeof waiting_for, "%ld values read (%ld so far)", p.trigger, delivered);
		}
		if (triggered && rf.stop[1] >= 0) {
			MUST(close(rf.stop[1]) == 0);
			rf.stop[1] = -1;
		}
		if (phase == END)
			snprintf(waiting_for, sizeof waiting_for,
				 "end of file at the readers, the senders' reports and the creator's end (%d of %d "
				 "readers reported)", tallies, want_tallies);
		if (progress) {
			deadline = now() + timeout_s;
		} else if (now() > deadline) {
			if (phase == DRAIN)
				report_missing(&p, sent);
			fail("no progress in %d s waiting for %s", timeout_s, waiting_for);
		}
	}
	if (tallies != want_tallies)
		fail("%d of %d readers reported", tallies, want_tallies);

	/* Every process of the round has closed its reports: reap them all
	 * (orphans of the creator come here: the driver is a subreaper). */
	int left = 1 + p.nreaders + p.nsenders;
	deadline = now() + timeout_s;
	for (;;) {
		int status;
		pid_t w = waitpid(-1, &status, WNOHANG);
		if (w < 0 && errno == ECHILD)
			break;
		MUST(w >= 0);
		if (w == 0) {
			if (now() > deadline)
				fail("waited %d s for %d children to end", timeout_s, left);
			poll(NULL, 0, 2);
			continue;
		}
		bool known = w == creator;
		for (int i = 0; i < p.nreaders; i++)
			known |= w == readers[i];
		for (int i = 0; i < p.nsenders; i++)
			known |= w == senders[i];
		if (w == creator)
			check_status(w, status, "the creator",
				     p.death == DIE_EXEC ? EXEC_STATUS : 0, p.death == DIE_KILL ? SIGKILL : 0);
		else
			check_status(w, status, known ? "a reader or sender" : "an orphan of the creator", 0, 0);
		left -= known;
	}
	round_pgid = 0;
	if (left > 0)
		fail("%d children never seen", left);
	MUST(close(rf.cmd[1]) == 0);
	for (int i = 0; i < ns; i++)
		MUST(close(st[i].fd) == 0);

	/* The count. A hole below a value read is lost; after exit() every
	 * value sent must have been read. */
	long lost = 0, gone = 0;
	for (int k = 0; k < NCOUNT; k++)
		for (int s = 0; s < p.nsenders; s++) {
			int top = -1;
			for (int q = 0; q < (int)sent[s][k]; q++)
				if (seen[k][s][q])
					top = q;
			for (int q = 0; q < (int)sent[s][k]; q++)
				if (!seen[k][s][q]) {
					if (q < top || p.death == DIE_EXIT) {
						if (lost < 5)
							fprintf(stderr, "soak: round %u: value %d of sender %d on signal %d never read%s\n",
								no, q, s, counted_sig(k), q < top ? " (a later one was)" : "");
						lost++;
					} else {
						gone++;
					}
				}
			free(seen[k][s]);
			seen[k][s] = NULL;
		}
	for (int u = 0; u < NUNCOUNTED; u++) {
		long us = 0;
		for (int s = 0; s < p.nsenders; s++)
			us += sent[s][NCOUNT + u];
		/* A record of a standard signal is one dequeue, of one kill
		 * at least; extra fds' records are not counted here. */
		if (unc_read[u] > us)
			fail("signal %d: %ld records read, %ld sent", uncounted_sig(u), unc_read[u], us);
		total.uncounted_sent += us;
		total.uncounted_read += unc_read[u];
	}
	total.sent += sent_total;
	total.delivered += delivered;
	total.lost += lost;
	total.dup += dups;
	total.gone += gone;
	total.rounds++;
	total.deaths[p.death]++;
	if (lost || dups)
		fail("%ld values lost, %ld duplicated", lost, dups);

	unsigned char fds_now[1024];
	fd_list(fds_now, 1024);
	for (int fd = 0; fd < 1024; fd++)
		if (fds_now[fd] != fds_at_start[fd])
			fail("fd %d %s at the end of the round", fd, fds_now[fd] ? "left open" : "closed");
	if (forwarders() != 0)
		fail("a forwarding thread left in the driver");
	if (verbose)
		fprintf(stderr, "round %u: %ld sent, %ld read, %ld not delivered (%s)\n", no, sent_total, delivered, gone,
			death_name[p.death]);
}

int main(int argc, char **argv)
{
	double seconds = 5, start;
	unsigned first = 0, rounds = 0;
	bool seeded = false;

	if (argc == 2 && strcmp(argv[1], "--exec-image") == 0)
		_exit(EXEC_STATUS); /* the creator's new image: it ends at once */
	for (int i = 1; i < argc; i++) {
		if (i + 1 < argc && strcmp(argv[i], "--seconds") == 0)
			seconds = atof(argv[++i]);
		else if (i + 1 < argc && strcmp(argv[i], "--seed") == 0)
			seed = strtoull(argv[++i], NULL, 0), seeded = true;
		else if (i + 1 < argc && strcmp(argv[i], "--round") == 0)
			first = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (i + 1 < argc && strcmp(argv[i], "--rounds") == 0)
			rounds = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (i + 1 < argc && strcmp(argv[i], "--values") == 0)
			per_sender = atoi(argv[++i]);
		else if (i + 1 < argc && strcmp(argv[i], "--timeout") == 0)
			timeout_s = atoi(argv[++i]);
		else if (strcmp(argv[i], "-v") == 0)
			verbose = 1;
		else {
			fprintf(stderr, "usage: soak [--seconds S] [--seed N] [--round R] [--rounds N] [--values N] "
					"[--timeout S] [-v]\n");
			return 2;
		}
	}
	if (per_sender < 2 || per_sender >= 1 << SEQ_BITS) {
		fprintf(stderr, "soak: --values must be 2 to %d\n", (1 << SEQ_BITS) - 1);
		return 2;
	}
	if (!seeded)
		seed = (uint64_t)time(NULL) ^ (uint64_t)getpid() << 20;
	ssize_t n = readlink("/proc/self/exe", self_exe, sizeof self_exe - 1);
	MUST(n > 0);
	self_exe[n] = 0;
	driver_pid = getpid();
	/* The creator's orphans (its reader child, its children in flight
	 * when it dies) are reaped and checked here. */
	MUST(prctl(PR_SET_CHILD_SUBREAPER, 1) == 0);
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&all_sigs);
	for (int k = 0; k < NCOUNT; k++)
		sigaddset(&all_sigs, counted_sig(k));
	for (int u = 0; u < NUNCOUNTED; u++)
		sigaddset(&all_sigs, uncounted_sig(u));
	sigaddset(&all_sigs, LEFT_SIG); /* only the creator's left_worker unblocks it */
	printf("soak: seed %llu\n", (unsigned long long)seed);
	fflush(stdout);
	fd_list(fds_at_start, 1024);
	start = now();
	for (unsigned r = first; rounds ? r < first + rounds : (r == first || now() - start < seconds); r++)
		run_round(r);
	/* Measured again for the tally (each round already failed on any). */
	unsigned char fds_end[1024];
	int fds_left = 0;
	fd_list(fds_end, 1024);
	for (int fd = 0; fd < 1024; fd++)
		fds_left += fds_end[fd] != fds_at_start[fd];
	int threads_left = forwarders();
	MUST(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD);
	printf("soak: %.0f s, %ld rounds: %ld sent, %ld delivered, %ld lost, %ld duplicated, %ld not delivered "
	       "(creator gone); fds left %d, threads left %d, seed %llu\n",
	       now() - start, total.rounds, total.sent, total.delivered, total.lost, total.dup, total.gone, fds_left,
	       threads_left, (unsigned long long)seed);
	printf("soak: rounds ending by exit() %ld, SIGKILL %ld, exec %ld; uncounted signals: %ld sent, %ld records "
	       "read on the counted fds\n",
	       total.deaths[DIE_EXIT], total.deaths[DIE_KILL], total.deaths[DIE_EXEC], total.uncounted_sent,
	       total.uncounted_read);
	return 0;
}
