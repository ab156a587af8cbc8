// SPDX-License-Identifier: GPL-2.0
/*
 *  sigfd.ko: signal descriptors bound to the task that created them
 *
 *  The 2003 sigfd() design as a module: ioctl(SIGFD_IOC_CREATE) on /dev/sigfd
 *  returns a descriptor bound to the calling thread, "the creator". Whoever
 *  holds it (after fork, through SCM_RIGHTS) reads the creator's signals, as
 *  128-byte struct signalfd_siginfo records filled as fs/signalfd.c fills
 *  them, with ssi_pid and ssi_uid seen from the reader's pid and user
 *  namespaces (0 and the overflow uid where the reader cannot see them).
 *
 *  What the descriptor reports: the creator thread's private queue and its
 *  process's shared queue, exactly what a signalfd in the creator thread
 *  would see. Signals directed at other threads of the creator's process
 *  are not reported; they belong to those threads.
 *
 *  The creator. All descriptors of one creator share a struct sigfd_creator:
 *  one wait entry on the creator's sighand->signalfd_wqh, which every queued
 *  signal wakes, and one wait queue of ours holding only the readers and
 *  pollers actually waiting, so a signal costs the sender the same with one
 *  descriptor or the most a creator may have. The bridge entry unhooks
 *  itself on the POLLFREE wakeup when that sighand is freed, as epoll does;
 *  we never pin the sighand (its last put frees it from a cache we cannot
 *  reach). While the creator runs we hold a reference on its task_struct;
 *  its exit or exec ends that, so a descriptor of a dead creator pins only
 *  its struct pid (what a pidfd pins), kept for fdinfo and the namespace
 *  translation.
 *
 *  Exit and exec: the contract at the creator's end. Probes on the
 *  sched_process_exit and sched_process_exec tracepoints queue the end as
 *  task work, which runs in the creator's own context (sigfd_task_ends()).
 *   - At its exit, under one hold of its siglock, the signals of the
 *     descriptors' masks pending for it at that moment are handed over:
 *     their sigqueues are unlinked from its queues onto the descriptors
 *     (sigfd_hand_over()), in the order a read would have taken them, and
 *     the readers are woken. They read those records, then end of file;
 *     poll() says POLLIN|POLLHUP from that point on, as for a pipe whose
 *     writer is gone. Anything sent after that point is never readable.
 *   - At its exec nothing moves: POSIX keeps pending signals across exec,
 *     for the new program, as the kernel's SFD_CREATOR does. For readers
 *     the end comes earlier than the probe: begin_new_exec() moves the
 *     creator's self_exec_id on after de_thread() and before it installs
 *     the new credentials, and from then on reads and polls, which look
 *     under the creator's siglock, see end of file (sigfd_exec_begun()).
 *     So nothing sent to a set-user-ID program, which already has its
 *     credentials while it is being loaded, reaches a descriptor made
 *     before.
 *  The handed-over sigqueues stay the kernel's, still charged to the
 *  RLIMIT_SIGPENDING of the creator's user until a read or the last close
 *  frees them through dequeue_signal() (sigfd_free_sigqueue()): descriptors
 *  of dead creators hold no more records than the limit allows the living.
 *  The step is one pass over what is pending and one over the descriptors
 *  (a creator has at most SIGFD_CREATOR_MAX open; the next is EMFILE),
 *  allocates nothing and cannot fail.
 *   - Several descriptors of one creator, masks overlapping: each signal
 *     goes to exactly one, the oldest descriptor whose mask has it.
 *   - A creator thread that is not its process's last (pthread_exit, or a
 *     sibling killed by another thread's exec): its private queue only.
 *     The process's signals belong to the threads that live on. When the
 *     whole process ends (exit_group, a fatal signal, its last thread),
 *     the process's queue is the creator's too.
 *   - Exec by a non-leader thread: de_thread() kills the other threads first
 *     (each creator among them hands its private queue over at its exit),
 *     then the exec'ing thread takes over the leader's pid.
 *   - An exec that fails past its point of no return kills the creator:
 *     that exit hands nothing over either, its descriptors having ended.
 *   - A posix timer's own sigqueue is never handed over: see
 *     sigfd_hand_over_queue().
 *   - A stopped creator exits only through SIGKILL, which runs do_exit():
 *     its queues are handed over then, signals sent while it was stopped
 *     included. A traced creator stops at PTRACE_EVENT_EXIT before the
 *     probe: until its tracer lets it go on it is alive and its descriptors
 *     read its live queues. Signals handed over never pass a
 *     signal-delivery-stop, as with any signalfd read.
 *   - Between PF_EXITING and the end in exit_task_work() readers still take
 *     the live queues: that is before the point. pthread_join() can return
 *     before a creator thread's end (do_exit() clears the thread id in
 *     exit_mm(), earlier); POLLHUP on the descriptor, or waitpid() for a
 *     process, says the point passed.
 *
 *  dequeue_signal(tsk, ...) is written for tsk == current. When the reader
 *  is someone else, we refuse what it cannot do soundly; refused signals
 *  simply stay pending for the creator:
 *   - posix-timer signals (timer_create): their dequeue rearms the timer
 *     with the siglock dropped and looks the timer up in current's process;
 *     only the creator thread itself takes them.
 *   - synchronous faults (kernel-generated SIGSEGV, SIGBUS, SIGILL, SIGTRAP,
 *     SIGFPE, SIGSYS in the creator's private queue) belong to the faulting
 *     thread; taking one would make it fault again.
 *   - stop signals (SIGTSTP, SIGTTIN, SIGTTOU) when the reader does not share
 *     the creator's sighand: dequeuing one writes current->jobctl, which must
 *     only change under current's own siglock. Readers in the creator's
 *     process may take them; then no stop happens, as with signalfd.
 *   - SIGALRM, for readers in another process, while the creator has a
 *     periodic ITIMER_REAL: its dequeue restarts that timer, which could race
 *     with the process dying and cancelling it.
 *   A refusal can end with no new signal queued (the creator takes the held
 *   timer signal, or disarms its ITIMER_REAL), and nothing wakes us then;
 *   so while a wanted signal is refused and someone waits, a timer re-checks
 *   every SIGFD_RECHECK_MS.
 *   dequeue_signal() also recalculates TIF_SIGPENDING of current under the
 *   creator's lock, whether it took a signal or not; a reader in another
 *   process redoes that under its own, so a signal sent to the reader
 *   meanwhile keeps it from sleeping.
 *  SIGCHLD is delivered to any reader: the record names the child and its
 *  status, but reading it reaps nothing; only the creator's process can
 *  wait() for its children.
 *
 *  SIGKILL and SIGSTOP are dropped from masks. Only the creator's process
 *  (before any exec) may change the mask; others get EPERM. The module
 *  cannot be unloaded while a descriptor is open (fops.owner) or a
 *  creator's end is queued, and its unload waits for an end's last
 *  instructions (sigfd_exit()).
 */

#include <asm/ioctls.h>
#include <linux/anon_inodes.h>
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/hashtable.h>
#include <linux/kref.h>
#include <linux/local_lock.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/pid_namespace.h>
#include <linux/poll.h>
#include <linux/proc_fs.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/signal.h>
#include <linux/signalfd.h>
#include <linux/slab.h>
#include <linux/task_work.h>
#include <linux/timer.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>
#include <trace/events/sched.h>

#include "sigfd_uapi.h"

/*
 * Linux 6.12 made dequeue_signal() act on current only, so a reader in
 * another process can no longer take the creator's signals and listen-in,
 * the point of this module, would silently do nothing. Tried on 6.12.95
 * (bookworm-backports) in the guest, `make kmod-check KMOD_KERNEL=backports`:
 * it built and loaded, the creator's own reads passed, other readers got
 * nothing. Until there is a 6.12 design (the reader would have to make the
 * creator dequeue, say with task_work), the module is for kernels before
 * 6.12; there libsigfd's user-space share mode serves SIGFD_SHARE.
 */
typedef int (*sigfd_dequeue_fn)(struct task_struct *tsk, sigset_t *mask,
				kernel_siginfo_t *info, enum pid_type *type);
static_assert(__same_type(&dequeue_signal, sigfd_dequeue_fn),
	      "sigfd.ko needs Linux before 6.12: since 6.12 dequeue_signal() serves only current");

/* Re-check period while a wanted signal is refused and someone waits. */
#define SIGFD_RECHECK_MS 10

/*
 * Open descriptors of one creator, wherever they are held: its exit walks
 * them with interrupts off (sigfd_owners()), so however many a caller
 * makes and hands away, that walk stays short. The library's user-space
 * share mode allows RLIMIT_NOFILE less 20 a process.
 */
#define SIGFD_CREATOR_MAX 1024

/* One per creator thread, shared by all its descriptors. */
struct sigfd_creator {
	struct kref ref;		/* one per descriptor */
	struct task_struct *task;	/* pinned while it runs; NULL after */
	struct pid *pid;		/* its thread pid, for fdinfo and namespaces */
	bool gone;			/* handed over: under the siglock and ->lock */
	u64 exec_id;			/* its self_exec_id: sigfd_exec_begun() */
	spinlock_t lock;		/* ->gone, ->ctxs, ->nr_ctxs, each ctx's ->moved */
	struct list_head ctxs;		/* descriptors, oldest first (RCU) */
	unsigned int nr_ctxs;		/* open or being made: SIGFD_CREATOR_MAX */
	wait_queue_head_t wqh;		/* readers and pollers of all of them */
	wait_queue_entry_t bridge;	/* on the creator's signalfd_wqh */
	wait_queue_head_t *bridged;	/* that queue; NULL once unhooked */
	struct timer_list recheck;	/* wakes ->wqh while a refusal holds */
	struct hlist_node node;		/* in sigfd_creators while it runs */
	atomic_t ending;		/* a probe queued ->end_work */
	bool end_at_exit;		/* ... at its exit, not its exec */
	struct callback_head end_work;	/* sigfd_end_work(), as task work */
	struct rcu_head rcu;
};

struct sigfd_ctx {
	sigset_t mask;			/* wanted; written under the siglock */
	struct sigfd_creator *cr;
	struct file *file;		/* ours; freed after an RCU grace period */
	struct list_head node;		/* in cr->ctxs */
	/*
	 * Handed over at the creator's end: the kernel's own sigqueues, still
	 * charged to RLIMIT_SIGPENDING, from its private queue ([0]) and its
	 * process's ([1]), each sorted as a read takes them; a bit without an
	 * entry is a signal queued without one (as in any struct sigpending).
	 */
	struct sigpending moved[2];
	unsigned int nr_moved;		/* records a read would return */
	bool closed;
	struct rcu_head rcu;
};

/* One record: the signal, and its sender's uid out of the creator's user
 * namespace, so that it can be mapped into any reader's.
 */
struct sigfd_rec {
	kernel_siginfo_t info;
	kuid_t uid;
};

/*
 * Scratch for the hand-over: the descriptor taking each signal, and the
 * entries taken from one queue, by signal. The lists are empty between
 * hand-overs. This CPU's copy is ours under ->lock, which is free where the
 * siglock disables interrupts; under PREEMPT_RT the siglock sleeps and
 * leaves preemption on, and another creator's exit on this CPU waits there.
 */
struct sigfd_sort {
	local_lock_t lock;
	struct sigfd_ctx *owner[_NSIG];
	struct list_head by_sig[_NSIG];
};

static DEFINE_PER_CPU(struct sigfd_sort, sigfd_sort) = { .lock = INIT_LOCAL_LOCK(lock) };

/* Running creators by task, for create and the exit and exec probes. */
static DEFINE_HASHTABLE(sigfd_creators, 7);
static DEFINE_SPINLOCK(sigfd_creators_lock);

#define SIGFD_FAULT_MASK (sigmask(SIGSEGV) | sigmask(SIGBUS) | sigmask(SIGILL) | \
			  sigmask(SIGTRAP) | sigmask(SIGFPE) | sigmask(SIGSYS))

/* lock_task_sighand() is not exported: the same RCU walk, open-coded. The
 * sighand cache is SLAB_TYPESAFE_BY_RCU, so the lock stays a lock while we
 * look, and tsk->sighand cannot change once we hold it.
 */
static struct sighand_struct *sigfd_lock(struct task_struct *tsk, unsigned long *flags)
{
	struct sighand_struct *sighand;

	rcu_read_lock();
	for (;;) {
		sighand = rcu_dereference(tsk->sighand);
		if (!sighand)
			break;
		spin_lock_irqsave(&sighand->siglock, *flags);
		if (likely(sighand == rcu_access_pointer(tsk->sighand)))
			break;
		spin_unlock_irqrestore(&sighand->siglock, *flags);
	}
	rcu_read_unlock();
	return sighand;
}

/*
 * Lock a running creator's sighand. The task pointer is valid under RCU:
 * its end clears it before the creator can be reaped. NULL once it ended;
 * otherwise the caller checks ->gone under the lock.
 */
static struct task_struct *sigfd_lock_creator(struct sigfd_creator *cr, unsigned long *flags)
{
	struct task_struct *tsk;

	rcu_read_lock();
	tsk = READ_ONCE(cr->task);
	if (tsk && !sigfd_lock(tsk, flags))
		tsk = NULL;
	rcu_read_unlock();
	return tsk;
}

/*
 * Has creator @cr begun an exec? begin_new_exec() moves its self_exec_id on
 * before it installs the new program's credentials, and the exec probe runs
 * only once the new program is loaded: from the first, the descriptors are
 * at end of file, so nothing sent to a set-user-ID program reaches them.
 */
static bool sigfd_exec_begun(const struct sigfd_creator *cr, const struct task_struct *tsk)
{
	return READ_ONCE(tsk->self_exec_id) != cr->exec_id;
}

#define SIGFD_HOLD_TIMERS 1	/* posix-timer signals */
#define SIGFD_HOLD_FAULTS 2	/* synchronous faults */

/* Must this queued instance stay with the creator? */
static bool sigfd_held(const struct sigqueue *q, unsigned int hold)
{
	if ((hold & SIGFD_HOLD_TIMERS) && (q->flags & SIGQUEUE_PREALLOC) &&
	    q->info.si_code == SI_TIMER)
		return true;
	return (hold & SIGFD_HOLD_FAULTS) && q->info.si_code > SI_USER &&
	       (sigmask(q->info.si_signo) & SIGFD_FAULT_MASK);
}

/*
 * Walk one of the creator's queues: drop from @ok each signal whose next
 * instance (the first queued, the one dequeue_signal would take) is held.
 * With @count, also count the records a read could take from it now.
 */
static unsigned int sigfd_scan(struct sigpending *p, sigset_t *ok, unsigned int hold, bool count)
{
	sigset_t todo, seen;
	struct sigqueue *q;
	unsigned int n = 0;
	int sig;

	sigandsets(&todo, ok, &p->signal);
	sigemptyset(&seen);
	list_for_each_entry(q, &p->list, list) {
		if (sigisemptyset(&todo))
			break;
		sig = q->info.si_signo;
		if (!sigismember(&todo, sig))
			continue;
		if (sigfd_held(q, hold)) {
			if (!sigismember(&seen, sig))
				sigdelset(ok, sig);
			sigdelset(&todo, sig);
			continue;
		}
		sigaddset(&seen, sig);
		n++;
		if (!count)
			sigdelset(&todo, sig);	/* only the first instance matters */
	}
	/* A pending signal without a queue entry (queue full) is one record. */
	for (sig = 1; count && sig <= _NSIG; sig++)
		if (sigismember(&todo, sig) && !sigismember(&seen, sig))
			n++;
	return n;
}

/*
 * Under the creator's siglock: the signals current may take now (into @ok),
 * with @count how many records a read could return, and in @refused whether
 * a wanted pending signal is held back. See the header comment for why each
 * refusal is there.
 */
static unsigned int sigfd_allowed(struct sigfd_ctx *ctx, struct task_struct *tsk,
				  sigset_t *ok, bool count, bool *refused)
{
	struct sigpending *own = &tsk->pending, *shared = &tsk->signal->shared_pending;
	sigset_t wanted, from_own;
	unsigned int n;

	*ok = ctx->mask;
	if (current != tsk) {
		if (current->sighand != tsk->sighand)
			sigdelsetmask(ok, SIG_KERNEL_STOP_MASK);
		if (current->signal != tsk->signal && tsk->signal->it_real_incr)
			sigdelset(ok, SIGALRM);
		n = sigfd_scan(own, ok, SIGFD_HOLD_TIMERS | SIGFD_HOLD_FAULTS, count);
		/*
		 * dequeue_signal() takes a signal pending in both queues from
		 * the creator's own first: what waits in the shared queue then
		 * refuses only the reads after.
		 */
		sigandsets(&from_own, ok, &own->signal);
		n += sigfd_scan(shared, ok, SIGFD_HOLD_TIMERS, count);
		sigorsets(ok, ok, &from_own);
	} else {
		/* The creator itself: every wanted signal is fair game. */
		n = count ? sigfd_scan(own, ok, 0, true) + sigfd_scan(shared, ok, 0, true) : 0;
	}
	sigorsets(&wanted, &own->signal, &shared->signal);
	sigandsets(&wanted, &wanted, &ctx->mask);
	sigandnsets(&wanted, &wanted, ok);
	*refused = !sigisemptyset(&wanted);
	return n;
}

/* While a refusal holds, wake the waiters now and then to look again. */
static void sigfd_recheck_soon(struct sigfd_creator *cr)
{
	timer_reduce(&cr->recheck, jiffies + msecs_to_jiffies(SIGFD_RECHECK_MS));
}

static void sigfd_recheck(struct timer_list *t)
{
	struct sigfd_creator *cr = from_timer(cr, t, recheck);

	wake_up(&cr->wqh);
}

/* Under the creator's siglock: its sender uid as a kuid, for any reader. */
static void sigfd_note_uid(struct sigfd_rec *rec, struct task_struct *tsk)
{
	rec->uid = make_kuid(task_cred_xxx(tsk, user_ns), rec->info.si_uid);
}

/* The signal a read takes first, as next_signal() picks it: synchronous
 * faults first, then the lowest number. 0 if none.
 */
static int sigfd_first_sig(const sigset_t *set)
{
	unsigned long x;
	int i;

	for (i = 0; i < _NSIG_WORDS; i++) {
		x = set->sig[i];
		if (!x)
			continue;
		if (i == 0 && (x & SIGFD_FAULT_MASK))
			x &= SIGFD_FAULT_MASK;
		return i * _NSIG_BPW + __ffs(x) + 1;
	}
	return 0;
}

/*
 * A module can neither free a struct sigqueue nor drop its RLIMIT_SIGPENDING
 * charge; the kernel's dequeue does both. So a handed-over one goes back
 * through current's own queue, under current's siglock: the queue is set
 * aside, @q put alone in its place and taken by dequeue_signal(current),
 * which frees it as any delivered signal, and the queue is put back as it
 * was. Alone, so that the dequeue's look for a second instance is one step,
 * not a walk over all that current has pending (up to RLIMIT_SIGPENDING,
 * with interrupts off: at a creator's exit this runs once per record over
 * the limit). The hand-over's cursor in the queue stays valid: the entries
 * come back in their order, behind the same head. Never a posix timer's
 * preallocated sigqueue: those are not handed over.
 */
static void __sigfd_free_sigqueue(struct sigqueue *q, kernel_siginfo_t *info)
{
	struct sigpending *own = &current->pending;
	unsigned long stop = current->jobctl & JOBCTL_STOP_DEQUEUED;
	sigset_t others, was = own->signal;
	int sig = q->info.si_signo;
	enum pid_type type;
	LIST_HEAD(rest);

	lockdep_assert_held(&current->sighand->siglock);
	sigfillset(&others);
	sigdelset(&others, sig);
	/* No timer to rearm: dequeue_signal() would drop the siglock for it. */
	q->info.si_sys_private = 0;
	list_splice_init(&own->list, &rest);
	sigemptyset(&own->signal);
	list_add(&q->list, &own->list);
	sigaddset(&own->signal, sig);
	dequeue_signal(current, &others, info, &type);
	list_splice(&rest, &own->list);
	own->signal = was;
	recalc_sigpending();
	/* Nobody stops for it: as it was. */
	current->jobctl = (current->jobctl & ~JOBCTL_STOP_DEQUEUED) | stop;
}

static void sigfd_free_sigqueue(struct sigqueue *q, kernel_siginfo_t *info)
{
	spin_lock_irq(&current->sighand->siglock);
	__sigfd_free_sigqueue(q, info);
	spin_unlock_irq(&current->sighand->siglock);
}

/*
 * Whether the record @q of a legacy signal, queued to current, keeps its
 * user over current's RLIMIT_SIGPENDING. The kernel queues legacy signals
 * past the limit (kill(), SIGCHLD, SIGPIPE, faults: override_rlimit),
 * trusting their queue to be emptied or freed soon; the hand-over must
 * not keep them charged for as long as a descriptor is held.
 */
static bool sigfd_over_limit(struct sigqueue *q)
{
	return q->info.si_signo < SIGRTMIN && q->ucounts &&
	       get_rlimit_value(q->ucounts, UCOUNT_RLIMIT_SIGPENDING) >
	       task_rlimit(current, RLIMIT_SIGPENDING);
}

/* Under cr->lock: unlink the next handed-over record of @ctx. Its number,
 * with its sigqueue in *@q (NULL for a signal queued without one); 0 if
 * none is left.
 */
static int sigfd_unlink_moved(struct sigfd_ctx *ctx, struct sigqueue **q)
{
	struct sigpending *p;
	struct sigqueue *next;
	int i, sig;

	for (i = 0; i < ARRAY_SIZE(ctx->moved); i++) {
		p = &ctx->moved[i];
		sig = sigfd_first_sig(&p->signal);
		if (!sig)
			continue;
		/* Sorted as a read takes them: if @sig has an entry, it is first. */
		*q = list_first_entry_or_null(&p->list, struct sigqueue, list);
		if (*q && (*q)->info.si_signo == sig) {
			list_del_init(&(*q)->list);
			next = list_first_entry_or_null(&p->list, struct sigqueue, list);
			if (!next || next->info.si_signo != sig)
				sigdelset(&p->signal, sig);
		} else {
			*q = NULL;
			sigdelset(&p->signal, sig);
		}
		ctx->nr_moved--;
		return sig;
	}
	return 0;
}

/* The creator is gone: the next handed-over record, or 0 at end of file. */
static int sigfd_take_moved(struct sigfd_ctx *ctx, struct sigfd_rec *out)
{
	struct sigqueue *q;
	int sig;

	spin_lock_irq(&ctx->cr->lock);
	sig = sigfd_unlink_moved(ctx, &q);
	spin_unlock_irq(&ctx->cr->lock);
	if (!sig)
		return 0;
	if (q) {
		sigfd_free_sigqueue(q, &out->info);
	} else {
		/* what collect_signal() reports for a signal without an entry */
		clear_siginfo(&out->info);
		out->info.si_signo = sig;
		out->info.si_code = SI_USER;
	}
	/* The hand-over stored the sender's uid as a kuid. */
	out->uid = KUIDT_INIT(out->info.si_uid);
	return sig;
}

#ifdef SIGFD_TEST_WIDEN_M2
#include <linux/delay.h>
/*
 * Test only, never in a normal build (kmod/guest-m2.sh): issue 16's M-2
 * window, the few instructions in dequeue_signal()'s recalc_sigpending()
 * between reading a foreign reader's pending sets and clearing its
 * TIF_SIGPENDING, is hit a few times per million reads, too seldom for a
 * short check. Redo that recalculation with the window held open until a
 * signal to the reader sets the flag, for about SIGFD_TEST_WIDEN_M2
 * microseconds at most: the signal then loses its flag, unless the fix-up
 * under the reader's own siglock sets it again.
 */
static void sigfd_widen_m2(void)
{
	sigset_t unblocked;
	bool seen = test_thread_flag(TIF_SIGPENDING);
	int us;

	sigandnsets(&unblocked, &current->pending.signal, &current->blocked);
	seen |= !sigisemptyset(&unblocked);
	sigandnsets(&unblocked, &current->signal->shared_pending.signal, &current->blocked);
	seen |= !sigisemptyset(&unblocked);
	if (seen)
		return;
	for (us = 0; us < SIGFD_TEST_WIDEN_M2 && !test_thread_flag(TIF_SIGPENDING); us++)
		udelay(1);
	clear_thread_flag(TIF_SIGPENDING);
}
#else
static inline void sigfd_widen_m2(void) { }
#endif

/* Take one record: the signal number, 0 at end of file, or -EAGAIN. */
static int sigfd_take(struct sigfd_ctx *ctx, struct sigfd_rec *rec, bool *refused)
{
	struct task_struct *tsk;
	unsigned long flags;
	sigset_t skip;
	bool foreign_lock;
	enum pid_type type;
	int sig;

	*refused = false;
	rcu_read_lock();
	tsk = sigfd_lock_creator(ctx->cr, &flags);
	if (!tsk) {
		rcu_read_unlock();
		return sigfd_take_moved(ctx, rec);
	}
	if (ctx->cr->gone || sigfd_exec_begun(ctx->cr, tsk)) {
		spin_unlock_irqrestore(&tsk->sighand->siglock, flags);
		rcu_read_unlock();
		return sigfd_take_moved(ctx, rec);
	}
	foreign_lock = current->sighand != tsk->sighand;
	sigfd_allowed(ctx, tsk, &skip, false, refused);
	signotset(&skip);	/* dequeue_signal takes a "blocked" mask */
	sig = dequeue_signal(tsk, &skip, &rec->info, &type);
	if (foreign_lock)
		sigfd_widen_m2();
	if (sig)
		sigfd_note_uid(rec, tsk);
	spin_unlock_irqrestore(&tsk->sighand->siglock, flags);
	rcu_read_unlock();

	if (foreign_lock) {
		/* dequeue_signal() recalculated our TIF_SIGPENDING without our
		 * siglock, whether or not it took a signal; one queued to us
		 * meanwhile could have lost it.
		 */
		spin_lock_irq(&current->sighand->siglock);
		recalc_sigpending();
		spin_unlock_irq(&current->sighand->siglock);
	}
	return sig ?: -EAGAIN;
}

static int sigfd_dequeue(struct sigfd_ctx *ctx, struct sigfd_rec *rec, bool nonblock)
{
	struct sigfd_creator *cr = ctx->cr;
	DEFINE_WAIT(wait);
	bool refused;
	int ret;

	ret = sigfd_take(ctx, rec, &refused);
	if (ret != -EAGAIN || nonblock)
		return ret;
	for (;;) {
		prepare_to_wait(&cr->wqh, &wait, TASK_INTERRUPTIBLE);
		ret = sigfd_take(ctx, rec, &refused);
		if (ret != -EAGAIN)
			break;
		if (signal_pending(current)) {
			ret = -ERESTARTSYS;
			break;
		}
		if (refused)
			sigfd_recheck_soon(cr);
		schedule();
	}
	finish_wait(&cr->wqh, &wait);
	return ret;
}

/* siginfo_layout() is not exported. This is its answer on x86, folded the
 * way signalfd_copyinfo() folds it: every fault variant but MCEERR copies
 * only the address.
 */
static int sigfd_codes(int sig)
{
	switch (sig) {
	case SIGILL:
		return NSIGILL;
	case SIGFPE:
		return NSIGFPE;
	case SIGSEGV:
		return NSIGSEGV;
	case SIGBUS:
		return NSIGBUS;
	case SIGTRAP:
		return NSIGTRAP;
	case SIGCHLD:
		return NSIGCHLD;
	case SIGPOLL:
		return NSIGPOLL;
	case SIGSYS:
		return NSIGSYS;
	}
	return 0;
}

static enum siginfo_layout sigfd_layout(int sig, int code)
{
	int limit;

	if (code > SI_USER && code < SI_KERNEL) {
		limit = sigfd_codes(sig);
		if (code > limit)
			return code <= NSIGPOLL ? SIL_POLL : SIL_KILL;
		if (sig == SIGCHLD)
			return SIL_CHLD;
		if (sig == SIGPOLL)
			return SIL_POLL;
		if (sig == SIGSYS)
			return SIL_SYS;
		if (sig == SIGBUS && code >= BUS_MCEERR_AR && code <= BUS_MCEERR_AO)
			return SIL_FAULT_MCEERR;
		return SIL_FAULT;
	}
	if (code == SI_TIMER)
		return SIL_TIMER;
	if (code == SI_SIGIO)
		return SIL_POLL;
	return code < 0 ? SIL_RT : SIL_KILL;
}

/* A pid of the creator's pid namespace, as the reader sees it (0 if it
 * cannot), the way SCM_CREDENTIALS reports a sender.
 */
static u32 sigfd_reader_pid(struct sigfd_creator *cr, pid_t nr)
{
	struct pid_namespace *from = ns_of_pid(cr->pid), *to = task_active_pid_ns(current);
	struct pid *pid;

	if (!nr || from == to)
		return nr;
	rcu_read_lock();
	pid = find_pid_ns(nr, from);
	nr = pid ? pid_nr_ns(pid, to) : 0;
	rcu_read_unlock();
	return nr;
}

static int sigfd_copyinfo(struct sigfd_creator *cr, struct signalfd_siginfo __user *uinfo,
			  const struct sigfd_rec *rec)
{
	const kernel_siginfo_t *kinfo = &rec->info;
	struct signalfd_siginfo new;

	BUILD_BUG_ON(sizeof(struct signalfd_siginfo) != 128);
	memset(&new, 0, sizeof(new));	/* unused members are zero */
	new.ssi_signo = kinfo->si_signo;
	new.ssi_errno = kinfo->si_errno;
	new.ssi_code = kinfo->si_code;
	switch (sigfd_layout(kinfo->si_signo, kinfo->si_code)) {
	case SIL_KILL:
		new.ssi_pid = sigfd_reader_pid(cr, kinfo->si_pid);
		new.ssi_uid = from_kuid_munged(current_user_ns(), rec->uid);
		break;
	case SIL_TIMER:
		new.ssi_tid = kinfo->si_tid;
		new.ssi_overrun = kinfo->si_overrun;
		new.ssi_ptr = (long)kinfo->si_ptr;
		new.ssi_int = kinfo->si_int;
		break;
	case SIL_POLL:
		new.ssi_band = kinfo->si_band;
		new.ssi_fd = kinfo->si_fd;
		break;
	case SIL_FAULT_MCEERR:
		new.ssi_addr = (long)kinfo->si_addr;
		new.ssi_addr_lsb = (short)kinfo->si_addr_lsb;
		break;
	case SIL_CHLD:
		new.ssi_pid = sigfd_reader_pid(cr, kinfo->si_pid);
		new.ssi_uid = from_kuid_munged(current_user_ns(), rec->uid);
		new.ssi_status = kinfo->si_status;
		new.ssi_utime = kinfo->si_utime;
		new.ssi_stime = kinfo->si_stime;
		break;
	case SIL_RT:	/* also what sigqueue() sends */
		new.ssi_pid = sigfd_reader_pid(cr, kinfo->si_pid);
		new.ssi_uid = from_kuid_munged(current_user_ns(), rec->uid);
		new.ssi_ptr = (long)kinfo->si_ptr;
		new.ssi_int = kinfo->si_int;
		break;
	case SIL_SYS:
		new.ssi_call_addr = (long)kinfo->si_call_addr;
		new.ssi_syscall = kinfo->si_syscall;
		new.ssi_arch = kinfo->si_arch;
		break;
	default:	/* SIL_FAULT and its variants */
		new.ssi_addr = (long)kinfo->si_addr;
		break;
	}
	if (copy_to_user(uinfo, &new, sizeof(new)))
		return -EFAULT;
	return sizeof(*uinfo);
}

static ssize_t sigfd_read(struct file *file, char __user *buf, size_t count, loff_t *ppos)
{
	struct sigfd_ctx *ctx = file->private_data;
	struct signalfd_siginfo __user *urec = (struct signalfd_siginfo __user *)buf;
	bool nonblock = file->f_flags & O_NONBLOCK;
	struct sigfd_rec rec;
	ssize_t total = 0;
	int ret;

	count /= sizeof(*urec);
	if (!count)
		return -EINVAL;
	do {
		ret = sigfd_dequeue(ctx, &rec, nonblock);
		if (ret <= 0)
			break;
		ret = sigfd_copyinfo(ctx->cr, urec++, &rec);
		if (ret < 0)
			break;
		total += ret;
		nonblock = true;	/* block for the first record only */
	} while (--count);
	return total ? total : ret;
}

/*
 * Records a read would return now (with @count; else 0 or 1), and whether
 * the creator is gone (*@gone: end of file follows them). @refused as for
 * sigfd_allowed().
 */
static unsigned int sigfd_ready(struct sigfd_ctx *ctx, bool count, bool *gone, bool *refused)
{
	struct sigfd_creator *cr = ctx->cr;
	struct task_struct *tsk;
	unsigned long flags;
	bool exec_begun = false;
	unsigned int n = 0;
	sigset_t ok, any;

	*gone = false;
	*refused = false;
	rcu_read_lock();
	tsk = sigfd_lock_creator(cr, &flags);
	if (tsk)
		exec_begun = sigfd_exec_begun(cr, tsk);
	if (tsk && !cr->gone && !exec_begun) {
		n = sigfd_allowed(ctx, tsk, &ok, count, refused);
		if (!count) {
			sigorsets(&any, &tsk->pending.signal, &tsk->signal->shared_pending.signal);
			sigandsets(&any, &any, &ok);
			n = !sigisemptyset(&any);
		}
	}
	if (tsk)
		spin_unlock_irqrestore(&tsk->sighand->siglock, flags);
	rcu_read_unlock();
	/* The end may have run meanwhile: then the handed-over ones count. */
	spin_lock_irq(&cr->lock);
	if (cr->gone || exec_begun) {
		n = count ? ctx->nr_moved : !!ctx->nr_moved;
		*gone = true;
		*refused = false;
	}
	spin_unlock_irq(&cr->lock);
	return n;
}

static __poll_t sigfd_poll(struct file *file, poll_table *wait)
{
	struct sigfd_ctx *ctx = file->private_data;
	bool gone, refused;
	unsigned int n;

	poll_wait(file, &ctx->cr->wqh, wait);
	n = sigfd_ready(ctx, false, &gone, &refused);
	if (gone)
		return EPOLLIN | EPOLLHUP;
	if (!n && refused)
		sigfd_recheck_soon(ctx->cr);
	return n ? EPOLLIN : 0;
}

static int sigfd_get_params(struct sigfd_params *p, sigset_t *mask,
			    const struct sigfd_params __user *uarg)
{
	u32 size;
	int sig, err;

	if (get_user(size, &uarg->size))
		return -EFAULT;
	if (size < SIGFD_PARAMS_SIZE_V1)
		return -EINVAL;
	if (size > PAGE_SIZE)	/* as openat2() and clone3() */
		return -E2BIG;
	err = copy_struct_from_user(p, sizeof(*p), uarg, size);
	if (err)
		return err;
	sigemptyset(mask);
	for (sig = 1; sig <= min(_NSIG, 64); sig++)
		if (p->mask & (1ULL << (sig - 1)))
			sigaddset(mask, sig);
	sigdelsetmask(mask, sigmask(SIGKILL) | sigmask(SIGSTOP));
	return 0;
}

static long sigfd_setmask(struct sigfd_ctx *ctx, const struct sigfd_params __user *uarg)
{
	struct task_struct *tsk;
	struct sigfd_params p;
	unsigned long flags;
	sigset_t mask;
	int err, i;

	err = sigfd_get_params(&p, &mask, uarg);
	if (err)
		return err;
	if (p.flags)
		return -EINVAL;
	err = -EPERM;
	rcu_read_lock();
	tsk = sigfd_lock_creator(ctx->cr, &flags);
	if (tsk) {
		if (current->signal == tsk->signal && !ctx->cr->gone &&
		    !sigfd_exec_begun(ctx->cr, tsk)) {
			/* fdinfo reads it without the lock */
			for (i = 0; i < _NSIG_WORDS; i++)
				WRITE_ONCE(ctx->mask.sig[i], mask.sig[i]);
			err = 0;
		}
		spin_unlock_irqrestore(&tsk->sighand->siglock, flags);
	}
	rcu_read_unlock();
	if (!err)
		wake_up_all(&ctx->cr->wqh);	/* a signal now wanted may be pending */
	return err;
}

static long sigfd_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct sigfd_ctx *ctx = file->private_data;
	bool gone, refused;
	long n;

	if (cmd == FIONREAD) {
		n = sigfd_ready(ctx, true, &gone, &refused);
		n *= sizeof(struct signalfd_siginfo);
		return put_user((int)min_t(long, n, INT_MAX), (int __user *)arg);
	}
	if (_IOC_TYPE(cmd) == SIGFD_IOC_MAGIC && _IOC_NR(cmd) == _IOC_NR(SIGFD_IOC_SETMASK))
		return sigfd_setmask(ctx, (const struct sigfd_params __user *)arg);
	return -ENOTTY;
}

/* Leave the creator's signalfd_wqh, once: the end, the last release and
 * POLLFREE may all try. As ep_remove_wait_queue(): if POLLFREE has not
 * unhooked us yet, the sighand is still there, or at least still a sighand,
 * under RCU.
 */
static void sigfd_unbridge(struct sigfd_creator *cr)
{
	wait_queue_head_t *whead;

	rcu_read_lock();
	whead = xchg(&cr->bridged, NULL);
	if (whead)
		remove_wait_queue(whead, &cr->bridge);
	rcu_read_unlock();
}

static void sigfd_unhash(struct sigfd_creator *cr)
{
	spin_lock(&sigfd_creators_lock);
	if (!hlist_unhashed(&cr->node))
		hash_del_rcu(&cr->node);
	spin_unlock(&sigfd_creators_lock);
}

static void sigfd_put_task(struct sigfd_creator *cr)
{
	struct task_struct *tsk = xchg(&cr->task, NULL);

	if (tsk)
		put_task_struct(tsk);
}

static void sigfd_creator_free(struct kref *ref)
{
	struct sigfd_creator *cr = container_of(ref, struct sigfd_creator, ref);

	sigfd_unhash(cr);
	sigfd_unbridge(cr);
	sigfd_put_task(cr);
	timer_delete_sync(&cr->recheck);
	put_pid(cr->pid);
	kfree_rcu(cr, rcu);	/* a probe may still be looking at it */
}

static int sigfd_release(struct inode *inode, struct file *file)
{
	struct sigfd_ctx *ctx = file->private_data;
	struct sigfd_creator *cr = ctx->cr;
	kernel_siginfo_t info;
	struct sigqueue *q;
	unsigned int n = 0;

	spin_lock_irq(&cr->lock);
	ctx->closed = true;	/* an end running now hands us nothing */
	list_del_rcu(&ctx->node);
	cr->nr_ctxs--;
	spin_unlock_irq(&cr->lock);
	/* Unread records: their sigqueues go, uncharged, as read ones do. */
	for (;;) {
		spin_lock_irq(&cr->lock);
		q = list_first_entry_or_null(&ctx->moved[0].list, struct sigqueue, list) ?:
		    list_first_entry_or_null(&ctx->moved[1].list, struct sigqueue, list);
		if (q)
			list_del_init(&q->list);
		spin_unlock_irq(&cr->lock);
		if (!q)
			break;
		sigfd_free_sigqueue(q, &info);
		if (!(++n % 64))
			cond_resched();
	}
	kfree_rcu(ctx, rcu);
	kref_put(&cr->ref, sigfd_creator_free);
	return 0;
}

static void sigfd_show_fdinfo(struct seq_file *m, struct file *file)
{
	struct sigfd_ctx *ctx = file->private_data;
	/* Numbered as this /proc numbers tasks, as pidfd's fdinfo is. */
	struct pid_namespace *ns = proc_pid_ns(file_inode(m->file)->i_sb);
	sigset_t mask;
	u64 bits = 0;
	int sig, i;

	for (i = 0; i < _NSIG_WORDS; i++)
		mask.sig[i] = READ_ONCE(ctx->mask.sig[i]);
	for (sig = 1; sig <= min(_NSIG, 64); sig++)
		if (sigismember(&mask, sig))
			bits |= 1ULL << (sig - 1);
	seq_printf(m, "sigmask:\t%016llx\ncreator:\t%d\n", bits, pid_nr_ns(ctx->cr->pid, ns));
}

static const struct file_operations sigfd_fops = {
	.owner		= THIS_MODULE,
	.show_fdinfo	= sigfd_show_fdinfo,
	.release	= sigfd_release,
	.poll		= sigfd_poll,
	.read		= sigfd_read,
	.unlocked_ioctl	= sigfd_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.llseek		= noop_llseek,
};

/* Every signal queued to the creator's process wakes its signalfd_wqh, and
 * so us. When that sighand is freed we are told with POLLFREE and must leave
 * its queue before returning, as epoll does.
 */
static int sigfd_bridge_wake(wait_queue_entry_t *wait, unsigned int mode, int sync, void *key)
{
	struct sigfd_creator *cr = container_of(wait, struct sigfd_creator, bridge);

	wake_up(&cr->wqh);
	if (key_to_poll(key) & POLLFREE) {
		list_del_init(&wait->entry);
		/* pairs with xchg() in sigfd_unbridge(): we are off the queue */
		smp_store_release(&cr->bridged, NULL);
	}
	return 0;
}

/* The creator struct of current, a new one on its first descriptor. Only
 * current itself creates or ends its own, so nothing races us here.
 */
static struct sigfd_creator *sigfd_creator_get(void)
{
	struct sigfd_creator *cr;

	spin_lock(&sigfd_creators_lock);
	hash_for_each_possible(sigfd_creators, cr, node, (unsigned long)current)
		if (READ_ONCE(cr->task) == current && kref_get_unless_zero(&cr->ref)) {
			spin_unlock(&sigfd_creators_lock);
			return cr;
		}
	spin_unlock(&sigfd_creators_lock);

	cr = kzalloc(sizeof(*cr), GFP_KERNEL_ACCOUNT);
	if (!cr)
		return NULL;
	kref_init(&cr->ref);
	cr->task = get_task_struct(current);
	cr->exec_id = current->self_exec_id;
	cr->pid = get_task_pid(current, PIDTYPE_PID);
	spin_lock_init(&cr->lock);
	INIT_LIST_HEAD(&cr->ctxs);
	init_waitqueue_head(&cr->wqh);
	timer_setup(&cr->recheck, sigfd_recheck, 0);
	init_waitqueue_func_entry(&cr->bridge, sigfd_bridge_wake);
	/* current's sighand cannot change under us: only its own exec does that. */
	cr->bridged = &current->sighand->signalfd_wqh;
	add_wait_queue(cr->bridged, &cr->bridge);
	spin_lock(&sigfd_creators_lock);
	hash_add_rcu(sigfd_creators, &cr->node, (unsigned long)current);
	spin_unlock(&sigfd_creators_lock);
	return cr;
}

/* A place among @cr's SIGFD_CREATOR_MAX descriptors, or false. */
static bool sigfd_count_ctx(struct sigfd_creator *cr)
{
	bool room;

	spin_lock_irq(&cr->lock);
	room = cr->nr_ctxs < SIGFD_CREATOR_MAX;
	if (room)
		cr->nr_ctxs++;
	spin_unlock_irq(&cr->lock);
	return room;
}

static void sigfd_uncount_ctx(struct sigfd_creator *cr)
{
	spin_lock_irq(&cr->lock);
	cr->nr_ctxs--;
	spin_unlock_irq(&cr->lock);
}

static long sigfd_create(const struct sigfd_params __user *uarg)
{
	struct sigfd_params p;
	struct sigfd_ctx *ctx;
	struct file *file;
	int fd, err;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL_ACCOUNT);
	if (!ctx)
		return -ENOMEM;
	err = sigfd_get_params(&p, &ctx->mask, uarg);
	if (!err && (p.flags & ~(SIGFD_KF_NONBLOCK | SIGFD_KF_CLOEXEC)))
		err = -EINVAL;
	if (err)
		goto out_ctx;
	init_sigpending(&ctx->moved[0]);
	init_sigpending(&ctx->moved[1]);
	err = -ENOMEM;
	ctx->cr = sigfd_creator_get();
	if (!ctx->cr)
		goto out_ctx;
	err = -EMFILE;
	if (!sigfd_count_ctx(ctx->cr))
		goto out_cr;

	fd = get_unused_fd_flags(p.flags & SIGFD_KF_CLOEXEC ? O_CLOEXEC : 0);
	if (fd < 0) {
		err = fd;
		goto out_uncount;
	}
	file = anon_inode_getfile("[sigfd]", &sigfd_fops, ctx,
				  O_RDWR | (p.flags & SIGFD_KF_NONBLOCK ? O_NONBLOCK : 0));
	if (IS_ERR(file)) {
		put_unused_fd(fd);
		err = PTR_ERR(file);
		goto out_uncount;
	}
	ctx->file = file;
	spin_lock_irq(&ctx->cr->lock);
	list_add_tail_rcu(&ctx->node, &ctx->cr->ctxs);
	spin_unlock_irq(&ctx->cr->lock);
	fd_install(fd, file);
	return fd;

out_uncount:
	sigfd_uncount_ctx(ctx->cr);
out_cr:
	kref_put(&ctx->cr->ref, sigfd_creator_free);
out_ctx:
	kfree(ctx);
	return err;
}

static long sigfd_dev_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (_IOC_TYPE(cmd) == SIGFD_IOC_MAGIC && _IOC_NR(cmd) == _IOC_NR(SIGFD_IOC_CREATE))
		return sigfd_create((const struct sigfd_params __user *)arg);
	return -ENOTTY;
}

static const struct file_operations sigfd_dev_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= sigfd_dev_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.llseek		= noop_llseek,
};

static struct miscdevice sigfd_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "sigfd",
	.fops	= &sigfd_dev_fops,
	.mode	= 0666,	/* a descriptor only ever reports the caller's own signals */
};

/*
 * Under current's siglock and cr->lock: which live descriptor takes each
 * signal, the oldest whose mask has it. One whose last reference is gone
 * (being released) takes nothing.
 */
static void sigfd_owners(struct sigfd_creator *cr, struct sigfd_sort *s)
{
	struct sigfd_ctx *ctx;
	sigset_t left, take;
	int sig;

	memset(s->owner, 0, sizeof(s->owner));
	sigfillset(&left);
	list_for_each_entry(ctx, &cr->ctxs, node) {
		if (ctx->closed || !file_count(ctx->file))
			continue;
		sigandsets(&take, &ctx->mask, &left);
		if (sigisemptyset(&take))
			continue;
		sigandnsets(&left, &left, &take);
		for (sig = 1; sig <= _NSIG; sig++)
			if (sigismember(&take, sig))
				s->owner[sig - 1] = ctx;
	}
}

/* The uid of a sender in the creator's user namespace, as a kuid. */
static void sigfd_uid_to_kuid(struct sigqueue *q, struct user_namespace *ns)
{
	switch (sigfd_layout(q->info.si_signo, q->info.si_code)) {
	case SIL_KILL:
	case SIL_CHLD:
	case SIL_RT:
		q->info.si_uid = __kuid_val(make_kuid(ns, q->info.si_uid));
		break;
	default:
		break;
	}
}

/*
 * Under current's siglock and cr->lock: hand queue @p over, its entries to
 * their owners' ->moved[@which]. One pass over the queue and one over the
 * signal numbers, nothing allocated. A posix timer's preallocated sigqueue
 * stays: it belongs to its timer, which frees it (sigqueue_free() looks for
 * it on this queue under this lock), re-queues it and is re-armed only when
 * a dequeue_signal() in the timer's process takes it. Taken here it would
 * re-arm a timer that exit_itimers() in the last thread may be deleting at
 * this moment (6.1 unhashes it only after dropping its lock, and a CPU
 * timer's delete leaves it_interval set), which then fires into freed
 * memory; left here, it goes with the queue as without a descriptor.
 * Once its timer is deleted it is an ordinary sigqueue and is handed over.
 * A legacy signal's record that keeps its user over RLIMIT_SIGPENDING is
 * freed instead (sigfd_over_limit()), its charge with it, and the signal
 * handed over without an entry, as the kernel keeps one when it has no
 * queue space: what descriptors of dead creators hold stays within the
 * limit, however many creators there were.
 */
static void sigfd_hand_over_queue(struct sigfd_sort *s, struct sigpending *p, int which)
{
	struct user_namespace *ns = current_user_ns();
	struct sigqueue *q, *next;
	kernel_siginfo_t dropped;
	struct sigfd_ctx *ctx;
	struct list_head *taken;
	sigset_t stays;
	bool fault;
	int pass, sig;

	sigemptyset(&stays);
	list_for_each_entry_safe(q, next, &p->list, list) {
		sig = q->info.si_signo;
		ctx = s->owner[sig - 1];
		if (!ctx)
			continue;
		if (q->flags & SIGQUEUE_PREALLOC) {
			sigaddset(&stays, sig);
			continue;
		}
		if (sigfd_over_limit(q)) {
			/* Its bit stays in @p: the pass below hands it over. */
			list_del_init(&q->list);
			__sigfd_free_sigqueue(q, &dropped);
			continue;
		}
		if (ns != &init_user_ns)
			sigfd_uid_to_kuid(q, ns);
		list_move_tail(&q->list, &s->by_sig[sig - 1]);
		ctx->nr_moved++;
	}
	/* In the order a read takes them: faults first, then by number. */
	for (pass = 0; pass < 2; pass++) {
		for (sig = 1; sig <= _NSIG; sig++) {
			ctx = s->owner[sig - 1];
			fault = sig < SIGRTMIN && (sigmask(sig) & SIGFD_FAULT_MASK);
			if (!ctx || fault != !pass || !sigismember(&p->signal, sig))
				continue;
			taken = &s->by_sig[sig - 1];
			if (list_empty(taken)) {
				if (sigismember(&stays, sig))
					continue;	/* only a timer's: nothing moves */
				ctx->nr_moved++;	/* queued without an entry */
			}
			list_splice_tail_init(taken, &ctx->moved[which].list);
			sigaddset(&ctx->moved[which].signal, sig);
			if (!sigismember(&stays, sig))
				sigdelset(&p->signal, sig);
		}
	}
}

/*
 * In creator @cr's own context, at its exit: the contract at the creator's
 * end. The signals of the descriptors' masks pending for it at this moment
 * go to them in one step under one hold of its siglock: its private queue
 * always, its process's queue when no sibling thread lives on to take
 * those (the process is ending). Nothing sent later is taken. The step is
 * one pass over what is pending (the RLIMIT_SIGPENDING of the creator's
 * user bounds it, as it bounds the kernel's own flush_sigqueue() of the
 * same queues at release) and one over the descriptors (SIGFD_CREATOR_MAX
 * bounds it).
 */
static void sigfd_hand_over(struct sigfd_creator *cr)
{
	struct signal_struct *signal = current->signal;
	struct sigfd_sort *s;

	local_lock(&sigfd_sort.lock);
	s = this_cpu_ptr(&sigfd_sort);
	sigfd_owners(cr, s);
	sigfd_hand_over_queue(s, &current->pending, 0);
	if ((signal->flags & SIGNAL_GROUP_EXIT) || !atomic_read(&signal->live))
		sigfd_hand_over_queue(s, &signal->shared_pending, 1);
	local_unlock(&sigfd_sort.lock);
}

/*
 * Creator @cr ends, in its own context. Its exit hands its pending signals
 * over; its exec hands nothing over, and neither does its exit after an
 * exec that failed past its point of no return (see the header comment).
 */
static void sigfd_creator_ends(struct sigfd_creator *cr, bool at_exit)
{
	struct sighand_struct *sighand = current->sighand;
	unsigned long flags;

	sigfd_unhash(cr);
	spin_lock_irqsave(&sighand->siglock, flags);
	spin_lock(&cr->lock);
	if (at_exit && !sigfd_exec_begun(cr, current))
		sigfd_hand_over(cr);
	cr->gone = true;
	spin_unlock(&cr->lock);
	recalc_sigpending();
	spin_unlock_irqrestore(&sighand->siglock, flags);

	wake_up_all(&cr->wqh);
	sigfd_unbridge(cr);
	sigfd_put_task(cr);
}

#ifdef SIGFD_TEST_WIDEN_END
/*
 * Test only, never in a normal build (kmod/tests/unload_after_end.c): the
 * instructions of sigfd_end_work() after its module_put(), which an unload
 * may race, held open until an unload has begun (10 s at most), then for
 * SIGFD_TEST_WIDEN_END milliseconds more, time enough for an unload that
 * does not wait to free this code. A busy wait, on the clock (a guest's
 * delay loop may be miscalibrated): a sleep would be the voluntary switch
 * that ends sigfd_exit()'s wait.
 */
static void sigfd_widen_end(void)
{
	u64 until = ktime_get_ns() + 10 * NSEC_PER_SEC;

	while (module_is_live(THIS_MODULE) && ktime_get_ns() < until)
		cpu_relax();
	until = ktime_get_ns() + SIGFD_TEST_WIDEN_END * NSEC_PER_MSEC;
	while (ktime_get_ns() < until)
		cpu_relax();
}
#else
static inline void sigfd_widen_end(void) { }
#endif

/* The task work sigfd_task_ends() queued, with a creator and a module reference. */
static void sigfd_end_work(struct callback_head *work)
{
	struct sigfd_creator *cr = container_of(work, struct sigfd_creator, end_work);

	sigfd_creator_ends(cr, cr->end_at_exit);
	kref_put(&cr->ref, sigfd_creator_free);
	module_put(THIS_MODULE);
	sigfd_widen_end();
}

/*
 * The exit and exec probes: @p == current. A tracepoint's probes run with
 * preemption off, where the siglock, a sleeping lock under PREEMPT_RT, may
 * not be taken; so the end runs as task work of the creator: at its exit
 * in exit_task_work(), before exit_notify() (waitpid() still says it has
 * passed), at its exec before the new program's first instruction (an
 * exec killed before that exits, and runs it then). task_work_add() fails
 * only once exit_task_work() has run, which is after both probes. The
 * work holds the module, whose descriptors may all be closed meanwhile.
 * There is one creator struct per task, but one whose last descriptor is
 * being released may still be in the table beside a new one: nothing to
 * end there, and its release puts the task.
 */
static void sigfd_task_ends(struct task_struct *p, bool at_exit)
{
	struct sigfd_creator *cr;

	rcu_read_lock();
	hash_for_each_possible_rcu(sigfd_creators, cr, node, (unsigned long)p) {
		if (READ_ONCE(cr->task) != p || !kref_get_unless_zero(&cr->ref))
			continue;
		if (atomic_xchg(&cr->ending, 1)) {	/* exec's, then an exit */
			kref_put(&cr->ref, sigfd_creator_free);	/* not the last */
			continue;
		}
		cr->end_at_exit = at_exit;
		__module_get(THIS_MODULE);	/* live: its probe is running */
		init_task_work(&cr->end_work, sigfd_end_work);
		if (WARN_ON_ONCE(task_work_add(p, &cr->end_work, TWA_RESUME))) {
			kref_put(&cr->ref, sigfd_creator_free);
			module_put(THIS_MODULE);
		}
	}
	rcu_read_unlock();
}

/* Each kernel we build for gets the prototype its tracepoint calls, checked
 * at compile time below: kCFI refuses a mismatched indirect call.
 */
static void sigfd_on_exit(void *data, struct task_struct *p)
{
	sigfd_task_ends(p, true);	/* PF_EXITING is set */
}

static void sigfd_on_exec(void *data, struct task_struct *p, pid_t old_pid,
			  struct linux_binprm *bprm)
{
	sigfd_task_ends(p, false);	/* end of file since sigfd_exec_begun() */
}

static struct tracepoint *sigfd_tp_exit, *sigfd_tp_exec;

static void sigfd_find_tracepoint(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_process_exit"))
		sigfd_tp_exit = tp;
	else if (!strcmp(tp->name, "sched_process_exec"))
		sigfd_tp_exec = tp;
}

static int __init sigfd_init(void)
{
	int err, cpu, sig;

	for_each_possible_cpu(cpu)
		for (sig = 0; sig < _NSIG; sig++)
			INIT_LIST_HEAD(&per_cpu_ptr(&sigfd_sort, cpu)->by_sig[sig]);
	check_trace_callback_type_sched_process_exit(sigfd_on_exit);
	check_trace_callback_type_sched_process_exec(sigfd_on_exec);
	for_each_kernel_tracepoint(sigfd_find_tracepoint, NULL);
	if (!sigfd_tp_exit || !sigfd_tp_exec)
		return -ENOENT;
	err = tracepoint_probe_register(sigfd_tp_exit, sigfd_on_exit, NULL);
	if (err)
		return err;
	err = tracepoint_probe_register(sigfd_tp_exec, sigfd_on_exec, NULL);
	if (err)
		goto out_exit;
	err = misc_register(&sigfd_dev);
	if (err)
		goto out_exec;
	return 0;

out_exec:
	tracepoint_probe_unregister(sigfd_tp_exec, sigfd_on_exec, NULL);
out_exit:
	tracepoint_probe_unregister(sigfd_tp_exit, sigfd_on_exit, NULL);
	tracepoint_synchronize_unregister();
	return err;
}

/*
 * An end's task work drops its module reference last, and may be preempted
 * before it has returned out of the module's code: an RCU Tasks grace
 * period ends only once every task has since switched voluntarily or been
 * in user space, so none is left on those instructions (the kernel's
 * trampolines wait so before freeing theirs).
 */
static void __exit sigfd_exit(void)
{
	misc_deregister(&sigfd_dev);
	tracepoint_probe_unregister(sigfd_tp_exec, sigfd_on_exec, NULL);
	tracepoint_probe_unregister(sigfd_tp_exit, sigfd_on_exit, NULL);
	tracepoint_synchronize_unregister();
	synchronize_rcu_tasks();
}

module_init(sigfd_init);
module_exit(sigfd_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Signal descriptors bound to their creating task (the 2003 sigfd design)");
