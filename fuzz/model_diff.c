/* SPDX-License-Identifier: MIT */
/* Model-based differential testing (docs/testing.md). A seeded generator
 * makes a random sequence of operations: signals of every kind (standard
 * and real-time, kill, sigqueue with a value, raise, tgkill, from this
 * process or another one, SIGCHLD from children exiting with random
 * statuses), reads with random buffer sizes, polls, mask changes, closing
 * and opening the descriptor, fork with the child reading, in share mode
 * threads sending while the main thread reads (burst()), and at the end
 * exit or exec of the creator while a child still reads.
 *   local mode: the sequence runs twice, once on sigfd() and once on a raw
 *   signalfd(2), the oracle; the two traces must be the same.
 *   share mode: the sequence runs on a share fd and every read is checked
 *   against a reference model of sigfd(3), one per kind of backend (the
 *   fd tells which: a pipe is the user-space backend's).
 *   User space: every signal in the mask arrives exactly once; a standard
 *   signal coalesces while a record of it is unread in a fd that would take
 *   it now (a second fd takes it once the first fd's mask drops it:
 *   coalesce_elsewhere()); real-time instances
 *   keep their order and value; signals outside the mask stay pending and
 *   arrive when the mask takes them, lowest number first; records unread
 *   when the fd is closed are gone; thread-directed signals are not sent
 *   (sigfd(3) BUGS).
 *   Kernel (the module, SFD_CREATOR): the fd reads the creator's queues as
 *   a signalfd in the creator thread would: its own queue first, then its
 *   process's, lowest number first, each real-time signal's instances in
 *   order; a read of less than a record is EINVAL; closing the fd loses
 *   nothing; thread-directed signals (tgkill, raise) are reported.
 *   Both: a forked child reads the parent's records, never its own
 *   signals; after the creator exits or execs, a reader gets the records
 *   left, then end of file (after an exec, a kernel backend's reader
 *   gets end of file at once: it leaves the pending signals to the new
 *   program, as POSIX keeps them); at exit, up to MAX_EXIT_FLOOD values queued
 *   unread just before (beyond a default pipe) come too; a signal of the
 *   mask the main thread leaves unblocked with a handler reaches the
 *   handler, never the fd (send_unblocked(), every mode).
 * The guest tiers run share mode on each kernel backend (kmod/guest-run.sh,
 * kernel/run.sh). Each sequence runs in a process of its own. On failure
 * the seed is printed with the command that replays it:
 *   model_diff --seed N --mode MODE -v
 * Budget: --seeds COUNT (from --first), or --seconds S, whichever ends first. */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/socket.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <time.h>

#include "../tests/share_util.h"

#define MAX_OPS 400
#define MAX_QUEUE 2048
/* At the finale's exit(), at most this many values queued unread: more
 * than a default pipe's 512 records, less than a grown one's 8192. */
#define MAX_EXIT_FLOOD 1100
/* Unread records kept below what a share fd surely holds at once. */
#define MAX_UNREAD 40
#define RECORD ((ssize_t)sizeof(struct sigfd_siginfo))

static uint64_t rng;
static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static int verbose;
static uint64_t seed;
static const char *mode;
static char *self_exe;

#define NSIGS 10
static int sigs[NSIGS];
static sigset_t universe;

/* --- the reference model of one share fd and the creator's kernel queues --- */
struct rec {
	int signo, code, value, status;
	pid_t pid;
	bool to_thread; /* in the creator thread's own queue, not its process's */
};
static bool kernel_model; /* a kernel backend: the fd reads the queues themselves */
static struct rec fdq[MAX_QUEUE]; /* user space: records in the fd, unread, in order */
static int fdq_n;
static struct rec kq[MAX_QUEUE]; /* pending in the kernel (user space: not in the mask) */
static int kq_n;
static sigset_t model_mask;
static bool fd_open;

static bool is_rt(int sig)
{
	return sig >= SIGRTMIN;
}

static void fd_push(struct rec r)
{
	if (!is_rt(r.signo))
		for (int i = 0; i < fdq_n; i++)
			if (fdq[i].signo == r.signo)
				return; /* coalesces into the unread record */
	CHECK(fdq_n < MAX_QUEUE);
	fdq[fdq_n++] = r;
}

static void kq_push(struct rec r)
{
	if (!is_rt(r.signo))
		for (int i = 0; i < kq_n; i++)
			if (kq[i].signo == r.signo && kq[i].to_thread == r.to_thread)
				return; /* pending once in each queue */
	CHECK(kq_n < MAX_QUEUE);
	kq[kq_n++] = r;
}

static bool wanted(const struct rec *r)
{
	return fd_open && sigismember(&model_mask, r->signo) == 1;
}

/* User space: the mask now takes what the kernel holds: lowest number
 * first, each signal's instances in order, as the kernel dequeues them. */
static void model_take_pending(void)
{
	if (!fd_open || kernel_model)
		return;
	for (int sig = 1; sig < NSIG; sig++) {
		if (sigismember(&model_mask, sig) != 1)
			continue;
		int w = 0;
		for (int i = 0; i < kq_n; i++)
			if (kq[i].signo == sig)
				fd_push(kq[i]);
			else
				kq[w++] = kq[i];
		kq_n = w;
	}
}

static void model_signal(struct rec r)
{
	if (!kernel_model && wanted(&r))
		fd_push(r);
	else
		kq_push(r);
}

/* How many records a read could return now. */
static int model_unread(void)
{
	int n = 0;

	if (!kernel_model)
		return fdq_n;
	for (int i = 0; i < kq_n; i++)
		n += wanted(&kq[i]);
	return n;
}

/* Kernel: the next record dequeue_signal() gives the creator thread: its
 * own queue before its process's, lowest number first, the oldest instance. */
static int kernel_next(void)
{
	int best = -1;

	for (int pass = 0; pass < 2 && best < 0; pass++)
		for (int i = 0; i < kq_n; i++)
			if (kq[i].to_thread == (pass == 0) && wanted(&kq[i]) &&
			    (best < 0 || kq[i].signo < kq[best].signo))
				best = i;
	return best;
}

/* The records a read of at most max records must return, in order, taken
 * out of the model; their number. */
static int model_take(struct rec *out, int max)
{
	int n = 0;

	if (!kernel_model) {
		n = fdq_n < max ? fdq_n : max;
		memcpy(out, fdq, (size_t)n * sizeof fdq[0]);
		memmove(fdq, fdq + n, (size_t)(fdq_n - n) * sizeof fdq[0]);
		fdq_n -= n;
		return n;
	}
	for (int i; n < max && (i = kernel_next()) >= 0; n++) {
		out[n] = kq[i];
		memmove(kq + i, kq + i + 1, (size_t)(kq_n - i - 1) * sizeof kq[0]);
		kq_n--;
	}
	return n;
}

/* --- the run --- */
static bool share;   /* this run uses a share fd and checks the model */
static bool oracle;  /* local mode's second run: raw signalfd */
static FILE *trace;  /* local mode: what happened, to compare */
static int fd = -1;
static int op_no;

#define FAIL(...)                                                                        \
	do {                                                                             \
		fprintf(stderr, "model_diff: seed %llu, %s mode, op %d: ",              \
			(unsigned long long)seed, mode, op_no);                          \
		fprintf(stderr, __VA_ARGS__);                                            \
		fputc('\n', stderr);                                                     \
		exit(1);                                                                 \
	} while (0)

#define SAY(...)                                                 \
	do {                                                     \
		if (verbose) {                                   \
			fprintf(stderr, "[%d] ", op_no);         \
			fprintf(stderr, __VA_ARGS__);            \
			fputc('\n', stderr);                     \
		}                                                \
	} while (0)

static void tr(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void tr(const char *fmt, ...)
{
	va_list ap;

	if (!trace)
		return;
	va_start(ap, fmt);
	vfprintf(trace, fmt, ap);
	va_end(ap);
	fputc('\n', trace);
}

static int open_fd(const sigset_t *mask)
{
	if (share)
		return sigfd(mask, SIGFD_SHARE | SIGFD_NONBLOCK);
	if (oracle)
		return signalfd(-1, mask, SFD_NONBLOCK);
	return sigfd(mask, SIGFD_NONBLOCK);
}

static int set_mask(const sigset_t *mask)
{
	return oracle ? (signalfd(fd, mask, 0) < 0 ? -1 : 0) : sigfd_setmask(fd, mask);
}

/* Share mode: every signal of the mask sent so far has been taken, and
 * written: the thread takes and writes under the share lock, so a call that
 * takes the lock (sigfd_setmask() of a pipe, EINVAL) returns after the
 * write. settle() alone returns once the signal left the kernel's queue,
 * which can be before its record is readable. */
static int lock_probe[2] = { -1, -1 };

static void settle_now(void)
{
	sigset_t none;

	if (!share || !fd_open)
		return;
	settle(fd, &model_mask);
	if (lock_probe[0] < 0)
		CHECK(pipe(lock_probe) == 0);
	sigemptyset(&none);
	CHECK(sigfd_setmask(lock_probe[0], &none) == -1 && errno == EINVAL);
}

static void random_mask(sigset_t *m)
{
	sigemptyset(m);
	for (int i = 0; i < NSIGS; i++)
		if (rnd(3))
			sigaddset(m, sigs[i]);
}

static bool same_record(const struct sigfd_siginfo *got, const struct rec *want)
{
	return (int)got->ssi_signo == want->signo && got->ssi_code == want->code &&
	       (pid_t)got->ssi_pid == want->pid &&
	       (want->code != SI_QUEUE || got->ssi_int == want->value) &&
	       (want->signo != SIGCHLD || got->ssi_status == want->status);
}

static void check_record(const struct sigfd_siginfo *got, const struct rec *want)
{
	if (!same_record(got, want))
		FAIL("read signal %u code %d pid %u int %d status %d; the model wants signal %d "
		     "code %d pid %d int %d status %d",
		     got->ssi_signo, got->ssi_code, got->ssi_pid, got->ssi_int, got->ssi_status,
		     want->signo, want->code, (int)want->pid, want->value, want->status);
}

/* Read with a buffer of the given size; check or trace what came. */
static void do_read(size_t size)
{
	struct sigfd_siginfo buf[8];
	ssize_t n = read(fd, buf, size);
	int err = errno;

	SAY("read %zu bytes: %zd", size, n);
	if (!share) {
		tr("read %zu -> %zd %s", size, n, n < 0 ? strerror(err) : "");
		for (ssize_t i = 0; n > 0 && i < n / RECORD; i++)
			tr("  rec %u code %d %s int %d status %d", buf[i].ssi_signo, buf[i].ssi_code,
			   (pid_t)buf[i].ssi_pid == getpid() ? "self" : "other", buf[i].ssi_int,
			   buf[i].ssi_status);
		return;
	}
	if (size < (size_t)RECORD) { /* a kernel backend only: the signalfd rule */
		if (n != -1 || err != EINVAL)
			FAIL("read of %zu returned %zd (%s), not EINVAL", size, n, strerror(err));
		return;
	}
	struct rec want[8];
	int unread = model_unread(), k = model_take(want, (int)(size / RECORD));
	if (k == 0) {
		if (n != -1 || err != EAGAIN)
			FAIL("read of %zu returned %zd (%s); the model has %d unread", size, n,
			     strerror(err), unread);
		return;
	}
	if (n != k * RECORD)
		FAIL("read of %zu returned %zd; the model wants %d records", size, n, k);
	for (int i = 0; i < k; i++)
		check_record(&buf[i], &want[i]);
}

static void do_poll(void)
{
	short ev = poll_events(fd, POLLIN, 0);

	SAY("poll: %#x", ev);
	if (!share)
		tr("poll %#x", ev);
	else if (!!(ev & POLLIN) != (model_unread() > 0))
		FAIL("poll says %s; the model has %d unread", ev & POLLIN ? "readable" : "not readable",
		     model_unread());
}

/* A child that sends sig (queued with value when rt) to us, then waits
 * for the go-ahead and exits with status: two signals, in that order. */
static void from_other(int sig, int value, int status)
{
	int go[2], sent[2];
	pid_t parent = getpid(), child;

	CHECK(pipe(go) == 0 && pipe(sent) == 0);
	CHECK((child = fork()) >= 0);
	if (child == 0) {
		if (sig && (is_rt(sig) ? sigqueue(parent, sig, int_val(value)) : kill(parent, sig)) < 0)
			_exit(99);
		put_byte(sent[1]);
		get_byte(go[0]);
		_exit(status);
	}
	/* Ours closed: a child that dies early (its sigqueue() refused,
	 * when other processes of the user fill the queue) fails the
	 * check here instead of leaving us waiting on ourselves. */
	CHECK(close(sent[1]) == 0 && close(go[0]) == 0);
	get_byte(sent[0]);
	if (sig)
		model_signal((struct rec){ sig, is_rt(sig) ? SI_QUEUE : SI_USER, value, 0, child, false });
	settle_now();
	put_byte(go[1]);
	int st;
	CHECK(waitpid(child, &st, 0) == child && WIFEXITED(st) && WEXITSTATUS(st) == status);
	CHECK(close(go[1]) == 0 && close(sent[0]) == 0);
	model_signal((struct rec){ SIGCHLD, CLD_EXITED, 0, status, child, false });
	settle_now();
	tr("child exited %d", status);
}

/* fork(): the child sends itself a signal of the mask, which must never
 * reach our fd, and reads k records, the parent's in share mode. */
static void fork_reader(void)
{
	int unread = model_unread(), k = unread ? (int)rnd((unsigned)unread + 1) : (int)rnd(2);
	int sig = sigs[rnd(NSIGS)], st;
	pid_t child;

	SAY("fork, the child reads %d", k);
	fflush(trace);
	CHECK((child = fork()) >= 0);
	if (child == 0) {
		trace = NULL;
		CHECK(kill(getpid(), sig) == 0);
		if (share) {
			for (int i = 0; i < k; i++)
				do_read(sizeof(struct sigfd_siginfo));
			_exit(0);
		}
		/* Local mode: the child reads its own signals: one at most. */
		struct sigfd_siginfo r;
		ssize_t n = read(fd, &r, sizeof r);
		_exit(n == RECORD ? (int)r.ssi_signo : n == 0 ? 100 : 101);
	}
	CHECK(waitpid(child, &st, 0) == child && WIFEXITED(st));
	if (share) {
		if (WEXITSTATUS(st) != 0)
			FAIL("the forked child's reads disagree with the model");
		struct rec gone[MAX_QUEUE];
		model_take(gone, k); /* what the child read, as it checked */
	}
	tr("forked child: %d", WEXITSTATUS(st));
	model_signal((struct rec){ SIGCHLD, CLD_EXITED, 0, WEXITSTATUS(st), child, false });
	settle_now();
}

/* --- threads at once (share mode) --- */
#define MAX_SENDERS 3
#define MAX_SENDS 8
#define THREAD_VALUE (1 << 16) /* a sender's value: THREAD_VALUE * (thread + 1) + its number */

struct sender {
	pthread_t id;
	int t, n, sig[MAX_SENDS];
};
static atomic_int senders_running;

/* Process-directed, as a signal from any thread of the creator is. */
static void *sender_main(void *arg)
{
	struct sender *s = arg;

	for (int i = 0; i < s->n; i++) {
		int sig = s->sig[i];
		CHECK(is_rt(sig) ? sigqueue(getpid(), sig, int_val(THREAD_VALUE * (s->t + 1) + i)) == 0
				 : kill(getpid(), sig) == 0);
	}
	atomic_fetch_sub(&senders_running, 1);
	return NULL;
}

/* Threads send signals of the mask while this thread reads, then what is
 * left is drained. What the model held before is read exactly once with
 * its siginfo; each real-time value sent exactly once, a thread's values of
 * one signal in the order it sent them; a standard signal sent at least
 * once, at most as often as it was sent or held (it may coalesce). The
 * plan comes from the seed; reads while the threads run use an RNG of
 * their own, as how many there are depends on the timing. */
static void burst(void)
{
	static struct rec pre[MAX_QUEUE];
	static struct sigfd_siginfo got[MAX_QUEUE];
	static bool pre_seen[MAX_QUEUE];
	struct sender snd[MAX_SENDERS];
	int in_mask[NSIGS], nin = 0, nsnd = 1 + (int)rnd(MAX_SENDERS), ngot = 0;
	int std_sent[NSIG] = { 0 }, std_held[NSIG] = { 0 }, std_got[NSIG] = { 0 };
	int last[MAX_SENDERS][MAX_SENDS];
	uint64_t read_rng = rng | 1;

	for (int i = 0; i < NSIGS; i++)
		if (sigismember(&model_mask, sigs[i]) == 1)
			in_mask[nin++] = sigs[i];
	if (nin == 0)
		return;
	for (int t = 0; t < nsnd; t++) {
		snd[t].t = t;
		snd[t].n = 1 + (int)rnd(MAX_SENDS);
		for (int i = 0; i < snd[t].n; i++) {
			snd[t].sig[i] = in_mask[rnd((unsigned)nin)];
			last[t][i] = 0;
			if (!is_rt(snd[t].sig[i]))
				std_sent[snd[t].sig[i]]++;
		}
	}
	int npre = model_take(pre, MAX_QUEUE);
	for (int j = 0; j < npre; j++) {
		pre_seen[j] = false;
		if (!is_rt(pre[j].signo))
			std_held[pre[j].signo]++;
	}
	SAY("burst: %d threads, %d records held", nsnd, npre);
	atomic_store(&senders_running, nsnd);
	for (int t = 0; t < nsnd; t++)
		CHECK(pthread_create(&snd[t].id, NULL, sender_main, &snd[t]) == 0);
	for (bool draining = false;;) {
		if (!draining && atomic_load(&senders_running) == 0) {
			for (int t = 0; t < nsnd; t++)
				CHECK(pthread_join(snd[t].id, NULL) == 0);
			settle_now();
			draining = true;
		}
		if (!draining)
			poll_events(fd, POLLIN, 1);
		read_rng ^= read_rng << 13;
		read_rng ^= read_rng >> 7;
		read_rng ^= read_rng << 17;
		size_t room = (size_t)(MAX_QUEUE - ngot) * sizeof got[0];
		size_t size = (size_t)(1 + read_rng % 8) * RECORD;
		ssize_t n = read(fd, got + ngot, size < room ? size : room);
		if (n < 0 && errno == EAGAIN && draining)
			break;
		if (n < 0 && errno == EAGAIN)
			continue;
		if (n <= 0 || n % RECORD != 0)
			FAIL("burst: read returned %zd (%s)", n, n < 0 ? strerror(errno) : "");
		ngot += (int)(n / RECORD);
	}
	for (int k = 0; k < ngot; k++) {
		const struct sigfd_siginfo *g = &got[k];
		int sig = (int)g->ssi_signo, v = g->ssi_int;
		if (is_rt(sig) && g->ssi_code == SI_QUEUE && v >= THREAD_VALUE) {
			int t = v / THREAD_VALUE - 1, i = v % THREAD_VALUE;
			if (t >= nsnd || i >= snd[t].n || snd[t].sig[i] != sig ||
			    (pid_t)g->ssi_pid != getpid())
				FAIL("burst: signal %d value %#x pid %u: no thread sent it", sig,
				     (unsigned)v, g->ssi_pid);
			for (int j = i; j < snd[t].n; j++)
				if (snd[t].sig[j] == sig && last[t][j])
					FAIL("burst: thread %d's signal %d number %d read after a later one or twice",
					     t, sig, i);
			last[t][i] = 1;
			continue;
		}
		/* Held before: the oldest unread of that signal, as the model has it. */
		int j = 0;
		while (j < npre && (pre_seen[j] || pre[j].signo != sig || (!is_rt(sig) && !same_record(g, &pre[j]))))
			j++;
		if (j < npre) {
			check_record(g, &pre[j]);
			pre_seen[j] = true;
		} else if (is_rt(sig) || !std_sent[sig]) {
			FAIL("burst: signal %d code %d value %d: neither held before nor sent", sig,
			     g->ssi_code, v);
		}
		if (!is_rt(sig))
			std_got[sig]++;
	}
	for (int j = 0; j < npre; j++)
		if (!pre_seen[j])
			FAIL("burst: signal %d, held before, never read", pre[j].signo);
	for (int t = 0; t < nsnd; t++)
		for (int i = 0; i < snd[t].n; i++)
			if (is_rt(snd[t].sig[i]) && !last[t][i])
				FAIL("burst: thread %d's signal %d number %d never read", t, snd[t].sig[i], i);
	for (int sig = 1; sig < NSIG; sig++) {
		if (std_sent[sig] && !std_got[sig])
			FAIL("burst: signal %d sent %d times, never read", sig, std_sent[sig]);
		if (std_got[sig] > std_sent[sig] + std_held[sig])
			FAIL("burst: signal %d read %d times, sent %d, held %d", sig, std_got[sig],
			     std_sent[sig], std_held[sig]);
	}
	SAY("burst: %d records read", ngot);
}

static void send_self(void)
{
	int sig = sigs[rnd(NSIGS)], how = rnd(4), value = (int)rnd(1000);
	struct rec r = { sig, SI_USER, 0, 0, getpid(), false };

	/* Thread-directed signals are not in the user-space backend (sigfd(3)
	 * BUGS); the kernel backends report the creator thread's own queue. */
	if (share && !kernel_model && how >= 2)
		how = rnd(2);
	switch (how) {
	case 0:
		CHECK(kill(getpid(), sig) == 0);
		break;
	case 1:
		CHECK(sigqueue(getpid(), sig, int_val(value)) == 0);
		r.code = SI_QUEUE;
		r.value = value;
		break;
	case 2:
		CHECK(syscall(SYS_tgkill, getpid(), getpid(), sig) == 0);
		r.code = SI_TKILL;
		r.to_thread = true;
		break;
	default:
		CHECK(raise(sig) == 0);
		r.code = SI_TKILL;
		r.to_thread = true;
		break;
	}
	SAY("send %d how %d value %d", sig, how, value);
	model_signal(r);
	settle_now();
}

/* A standard signal of the universe that the main thread unblocks, with a
 * handler, then sends itself: the handler runs (for it and for what was
 * pending of it), the fd reports nothing, in every mode. */
static volatile sig_atomic_t handled;

static void count_handled(int sig)
{
	(void)sig;
	handled++;
}

static void send_unblocked(void)
{
	int sig = sigs[rnd(NSIGS)], expect = 1, w = 0;
	struct sigaction sa = { .sa_handler = count_handled }, old;
	sigset_t one = set_of(sig);

	if (is_rt(sig) || sig == SIGCHLD)
		return;
	/* What is pending of it in the kernel is delivered at the unblock. */
	for (int i = 0; i < kq_n; i++)
		if (kq[i].signo == sig)
			expect++;
		else
			kq[w++] = kq[i];
	kq_n = w;
	handled = 0;
	sigemptyset(&sa.sa_mask);
	CHECK(sigaction(sig, &sa, &old) == 0);
	CHECK(sigprocmask(SIG_UNBLOCK, &one, NULL) == 0);
	/* The user-space backend reuses a disposition for a millisecond
	 * unless the program calls into share mode (sigfd(3)). */
	if (share && fd_open)
		CHECK(set_mask(&model_mask) == 0);
	CHECK(kill(getpid(), sig) == 0);
	/* A forwarding thread that took it gives it back: it comes later. */
	if (share)
		WAIT_UNTIL(handled >= expect);
	CHECK(sigprocmask(SIG_BLOCK, &one, NULL) == 0);
	CHECK(sigaction(sig, &old, NULL) == 0);
	SAY("unblocked %d: handled %d", sig, (int)handled);
	tr("unblocked %d handled %d", sig, (int)handled);
	if (share && handled != expect)
		FAIL("signal %d left unblocked with a handler: handled %d times, the model wants %d",
		     sig, (int)handled, expect);
	settle_now();
}

/* User space: the fd's mask drops a standard signal while a record of it is
 * unread, and a second share fd takes it: the next instance goes there,
 * and one more coalesces with that record, not with the first fd's. */
static void coalesce_elsewhere(void)
{
	int sig = -1, other;
	sigset_t one;
	struct sigfd_siginfo r;

	for (int i = 0; i < fdq_n && sig < 0; i++)
		if (!is_rt(fdq[i].signo) && sigismember(&model_mask, fdq[i].signo) == 1)
			sig = fdq[i].signo;
	if (sig < 0)
		return;
	one = set_of(sig);
	sigdelset(&model_mask, sig);
	CHECK(set_mask(&model_mask) == 0);
	CHECK((other = sigfd(&one, SIGFD_SHARE | SIGFD_NONBLOCK)) >= 0);
	CHECK(kill(getpid(), sig) == 0);
	CHECK(kill(getpid(), sig) == 0);
	settle(other, &one);
	SAY("coalesce elsewhere: %d", sig);
	if (read(other, &r, sizeof r) != RECORD || (int)r.ssi_signo != sig)
		FAIL("signal %d, dropped from the mask with a record unread, did not reach a second "
		     "share fd that takes it", sig);
	if (read(other, &r, sizeof r) != -1 || errno != EAGAIN)
		FAIL("signal %d sent twice to a second share fd gave two records", sig);
	CHECK(close(other) == 0);
	settle_now();
}

static void step(void)
{
	unsigned what = rnd(100);

	if (share && model_unread() >= MAX_UNREAD)
		what = 40; /* read: keep within what the fd surely holds */
	if (what < 40) {
		if (!fd_open)
			return;
		if (what < 30 && model_unread() + 1 < MAX_UNREAD)
			send_self();
		else if (model_unread() + 2 < MAX_UNREAD || !share)
			from_other(rnd(4) ? sigs[rnd(NSIGS)] : 0, (int)rnd(1000), (int)rnd(256));
	} else if (what < 70) {
		if (!fd_open)
			return;
		/* Whole records for the user-space backend (a part record is
		 * sigfd(3) BUGS); any size elsewhere. */
		size_t size = share && !kernel_model
				      ? (size_t)(1 + rnd(8)) * RECORD
				      : (size_t)(rnd(4) ? (1 + rnd(8)) * RECORD : rnd(3 * RECORD));
		do_read(size);
	} else if (what < 80) {
		if (what >= 78)
			send_unblocked();
		else if (fd_open)
			do_poll();
	} else if (what < 88) {
		if (!fd_open)
			return;
		if (what >= 86 && share && !kernel_model) {
			coalesce_elsewhere();
			return;
		}
		sigset_t m;
		random_mask(&m);
		SAY("setmask");
		CHECK(set_mask(&m) == 0);
		tr("setmask");
		if (share) {
			/* User space: signals leaving the mask stay where they are
			 * (records taken stay in the fd); signals joining it are
			 * taken now. Kernel: the mask filters the queues as they are. */
			model_mask = m;
			model_take_pending();
			settle_now();
		}
	} else if (what < 93) {
		if (fd_open) {
			SAY("close");
			CHECK(close(fd) == 0);
			fd_open = false;
			fdq_n = 0; /* user space: unread records go with the fd */
			fd = -1;
			if (share)
				WAIT_UNTIL(forwarders() == 0);
		} else {
			random_mask(&model_mask);
			SAY("open");
			CHECK((fd = open_fd(&model_mask)) >= 0);
			fd_open = true;
			model_take_pending();
			settle_now();
		}
		tr("open/close");
	} else if (what < 97 || !share) {
		if (fd_open)
			fork_reader();
	} else if (fd_open) {
		burst();
	}
}

/* Before exit(): more values of a real-time signal of the mask than a
 * default pipe holds, none read; all must reach the reader after the exit
 * (sigfd(3): what is pending at exit goes to the fd, as far as the grown
 * pipe holds). */
static void exit_flood(void)
{
	int sig = -1, k = 513 + (int)rnd(MAX_EXIT_FLOOD - 512);

	for (int i = NSIGS - 1; i >= 0 && sig < 0; i--)
		if (is_rt(sigs[i]) && sigismember(&model_mask, sigs[i]) == 1)
			sig = sigs[i];
	if (sig < 0)
		return;
	SAY("exit flood: %d values of %d", k, sig);
	for (int i = 0; i < k; i++) {
		struct rec r = { sig, SI_QUEUE, 100000 + i, 0, getpid(), false };
		CHECK(sigqueue(getpid(), sig, int_val(r.value)) == 0);
		model_signal(r);
	}
}

/* The end, share mode: the fd and the records the model still expects go
 * to the driver over sock (fd passing), then the creator exits or execs an
 * idle image; the driver must read those records, then end of file. */
static void finale(int sock)
{
	bool exec_it = rnd(2);

	settle_now();
	SAY("finale: %s, %d unread", exec_it ? "exec" : "exit", model_unread());
	if (share && fd_open && !exec_it && rnd(3) == 0)
		exit_flood();
	if (share && fd_open) {
		static struct rec left[MAX_QUEUE];
		int n = model_take(left, MAX_QUEUE);
		/* The kernel backends take nothing at exec: they are the new
		 * program's. */
		if (exec_it && kernel_model)
			n = 0;
		send_fd(sock, fd);
		CHECK(write(sock, &n, sizeof n) == (ssize_t)sizeof n);
		CHECK(write(sock, left, (size_t)n * sizeof left[0]) ==
		      (ssize_t)((size_t)n * sizeof left[0]));
	} else {
		int none = -1;
		CHECK(write(sock, &none, sizeof none) == (ssize_t)sizeof none);
	}
	if (trace)
		fflush(trace);
	if (exec_it) {
		/* stdin is the driver's pipe: the idle image waits on it. */
		execl(self_exe, self_exe, "--idle", (char *)NULL);
		FAIL("exec %s: %s", self_exe, strerror(errno));
	}
	exit(0);
}

static void run(int sock, int nops)
{
	struct stat st;

	random_mask(&model_mask);
	CHECK((fd = open_fd(&model_mask)) >= 0);
	fd_open = true;
	CHECK(fstat(fd, &st) == 0);
	kernel_model = share && !S_ISSOCK(st.st_mode);
	SAY("%s model", kernel_model ? "kernel" : share ? "user-space" : "local");
	for (op_no = 0; op_no < nops; op_no++)
		step();
	finale(sock);
}

/* --- the driver --- */
static int run_one(bool share_run, bool oracle_run, FILE *out, int nops)
{
	int sv[2], idle[2], st, n = -1;
	pid_t child;

	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
	CHECK(pipe(idle) == 0);
	CHECK((child = fork()) >= 0);
	if (child == 0) {
		leak_check_off();
		signal(SIGPIPE, SIG_DFL);
		CHECK(dup2(idle[0], 0) == 0);
		close_pair(idle);
		close(sv[0]);
		share = share_run;
		oracle = oracle_run;
		trace = out;
		rng = seed * 2654435761u + 1;
		block_only(&universe);
		run(sv[1], nops);
	}
	close(idle[0]);
	close(sv[1]);
	int rfd = -1;
	/* The fd comes first, as one byte with the rights; then the count. */
	if (share_run) {
		char peek;
		if (recv(sv[0], &peek, 1, MSG_PEEK) == 1 && peek == 'f')
			rfd = recv_fd(sv[0]);
	}
	ssize_t got = read(sv[0], &n, sizeof n);
	int bad = 0;
	if (got == (ssize_t)sizeof n && n >= 0 && rfd >= 0) {
		static struct rec want[MAX_QUEUE];
		CHECK(n <= MAX_QUEUE);
		size_t need = (size_t)n * sizeof want[0], have = 0;
		while (have < need) {
			ssize_t r = read(sv[0], (char *)want + have, need - have);
			CHECK(r > 0);
			have += (size_t)r;
		}
		/* The creator is gone or another program: the records, then EOF. */
		CHECK(fcntl(rfd, F_SETFL, 0) == 0);
		for (int i = 0; i < n && !bad; i++) {
			struct sigfd_siginfo r;
			CHECK(poll_events(rfd, POLLIN, 10000) & POLLIN);
			if (read(rfd, &r, sizeof r) != RECORD) {
				fprintf(stderr, "model_diff: seed %llu, share mode, after the creator "
						"ended: record %d of %d missing\n",
					(unsigned long long)seed, i + 1, n);
				bad = 1;
				break;
			}
			if ((int)r.ssi_signo != want[i].signo || (pid_t)r.ssi_pid != want[i].pid ||
			    (want[i].code == SI_QUEUE && r.ssi_int != want[i].value)) {
				fprintf(stderr, "model_diff: seed %llu, share mode, after the creator "
						"ended: record %d is signal %u, the model wants %d\n",
					(unsigned long long)seed, i + 1, r.ssi_signo, want[i].signo);
				bad = 1;
			}
		}
		if (!bad) {
			struct sigfd_siginfo r;
			/* Nothing to read (the native backend after an exec, which
			 * leaves the pending signals to the new program): the end
			 * first, or a read could take a live signal before it. */
			if (n == 0)
				CHECK(poll_events(rfd, 0, 10000) & POLLHUP);
			CHECK(poll_events(rfd, POLLIN, 10000) & (POLLIN | POLLHUP));
			ssize_t e = read(rfd, &r, sizeof r);
			if (e != 0) {
				fprintf(stderr, "model_diff: seed %llu, share mode: read after the "
						"creator ended gave %zd, not end of file\n",
					(unsigned long long)seed, e);
				bad = 1;
			}
		}
		close(rfd);
	}
	close(sv[0]);
	(void)!write(idle[1], "x", 1); /* an idle image may go now (EPIPE if none) */
	close(idle[1]);
	CHECK(waitpid(child, &st, 0) == child);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		bad = 1;
	return bad;
}

static bool same_file(FILE *a, FILE *b)
{
	char la[512], lb[512];
	int line = 0;

	rewind(a);
	rewind(b);
	for (;;) {
		char *ra = fgets(la, sizeof la, a), *rb = fgets(lb, sizeof lb, b);
		line++;
		if (!ra && !rb)
			return true;
		if (!ra || !rb || strcmp(la, lb) != 0) {
			fprintf(stderr, "model_diff: seed %llu, local mode: trace line %d differs:\n"
					"  sigfd:    %s  signalfd: %s",
				(unsigned long long)seed, line, ra ? la : "(end)\n", rb ? lb : "(end)\n");
			return false;
		}
	}
}

static int run_seed(bool do_local, bool do_share, int nops)
{
	int bad = 0;

	if (do_local) {
		FILE *a = tmpfile(), *b = tmpfile();
		CHECK(a && b);
		mode = "local";
		bad |= run_one(false, false, a, nops);
		bad |= run_one(false, true, b, nops);
		if (!bad && !same_file(a, b))
			bad = 1;
		fclose(a);
		fclose(b);
	}
	if (do_share && !bad) {
		mode = "share";
		bad |= run_one(true, false, NULL, nops);
	}
	return bad;
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned long long first = 1, count = 100;
	double seconds = 0;
	const char *which = "both";
	int nops = 150, one = 0;

	self_exe = argv[0];
	signal(SIGPIPE, SIG_IGN); /* the write to an idle image that never was */
	if (argc == 2 && strcmp(argv[1], "--idle") == 0) {
		char c;
		leak_check_off();
		(void)!read(0, &c, 1);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-v") == 0)
			verbose = 1;
		else if (i + 1 < argc && strcmp(argv[i], "--seed") == 0)
			first = strtoull(argv[++i], NULL, 10), count = 1, one = 1;
		else if (i + 1 < argc && strcmp(argv[i], "--first") == 0)
			first = strtoull(argv[++i], NULL, 10);
		else if (i + 1 < argc && strcmp(argv[i], "--seeds") == 0)
			count = strtoull(argv[++i], NULL, 10);
		else if (i + 1 < argc && strcmp(argv[i], "--seconds") == 0)
			seconds = atof(argv[++i]);
		else if (i + 1 < argc && strcmp(argv[i], "--ops") == 0)
			nops = atoi(argv[++i]);
		else if (i + 1 < argc && strcmp(argv[i], "--mode") == 0)
			which = argv[++i];
		else {
			fprintf(stderr, "usage: model_diff [--seed N | --first N --seeds COUNT] "
					"[--seconds S] [--ops N] [--mode local|share|both] [-v]\n");
			return 2;
		}
	}
	if (nops < 1 || nops > MAX_OPS)
		nops = MAX_OPS;
	int list[NSIGS] = { SIGHUP, SIGUSR1, SIGUSR2, SIGTERM, SIGCHLD, SIGWINCH, SIGRTMIN,
			    SIGRTMIN + 1, SIGRTMIN + 5, SIGRTMAX };
	memcpy(sigs, list, sizeof sigs);
	sigemptyset(&universe);
	for (int i = 0; i < NSIGS; i++)
		sigaddset(&universe, sigs[i]);
	bool do_local = strcmp(which, "share") != 0, do_share = strcmp(which, "local") != 0;
	double start = now();
	unsigned long long done = 0;
	for (seed = first; done < count; seed++, done++) {
		if (seconds > 0 && now() - start > seconds)
			break;
		if (run_seed(do_local, do_share, nops)) {
			fprintf(stderr, "model_diff: FAILED at seed %llu; replay: %s --seed %llu --ops %d --mode %s -v\n",
				(unsigned long long)seed, argv[0], (unsigned long long)seed, nops,
				do_local && do_share ? "both" : which);
			return 1;
		}
	}
	printf("model_diff: %llu sequences of %d operations (%s), seeds %llu..%llu, %.1f s, no "
	       "difference\n",
	       done, nops, which, first, first + done - 1, now() - start);
	(void)one;
	return 0;
}
