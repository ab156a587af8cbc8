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
 *  descriptor or a hundred thousand. The bridge entry unhooks itself on the
 *  POLLFREE wakeup when that sighand is freed, as epoll does; we never pin
 *  the sighand (its last put frees it from a cache we cannot reach). While
 *  the creator runs we hold a reference on its task_struct; its exit or exec
 *  ends that, so a descriptor of a dead creator pins only its struct pid
 *  (what a pidfd pins), kept for fdinfo and the namespace translation.
 *
 *  Exit and exec: nothing lost. Probes on the sched_process_exit and
 *  sched_process_exec tracepoints run in the creator's own context, where
 *  dequeue_signal() is sound on every kernel. There, under the creator's
 *  siglock, the signals of each descriptor's mask still pending for it move
 *  into a list on that descriptor, in the order a read would have taken
 *  them; then the readers are woken. They read those records, then end of
 *  file; poll() says POLLIN|POLLHUP from that point on, as for a pipe whose
 *  writer is gone. Anything sent after that point is never readable, and
 *  none of the moved signals reaches the program after an exec. The list is
 *  bounded by what was pending, which RLIMIT_SIGPENDING already bounds; the
 *  probes cannot sleep, so records are GFP_NOWAIT: a signal for which none
 *  can be had stays with the task and is counted in fdinfo's "lost".
 *   - Several descriptors of one creator, masks overlapping: each signal
 *     goes to exactly one, the oldest descriptor whose mask has it.
 *   - A creator that is not its process's last thread (pthread_exit, or a
 *     sibling killed by exit_group or by another thread's exec): its private
 *     queue and the wanted part of the shared queue move, as any reader of
 *     the descriptor could have taken them a moment before. Signals sent to
 *     the process afterwards stay with the process.
 *   - Exec by a non-leader thread: de_thread() kills the other threads first
 *     (each creator among them drains at its exit), then the exec'ing thread
 *     takes over the leader's pid; its probe runs after that, still before
 *     the new program runs a single instruction, so nothing reaches it.
 *   - SIGALRM while a periodic ITIMER_REAL is armed does not move at exit:
 *     do_exit() may already have cancelled that timer and dequeue_signal()
 *     would re-arm it on a dying process. Readers in other processes never
 *     could take it (below), so none of them saw it readable.
 *   - A stopped creator exits only through SIGKILL, which runs do_exit():
 *     it drains then, signals sent while it was stopped included. A traced
 *     creator stops at PTRACE_EVENT_EXIT before the probe: until its tracer
 *     lets it go on it is alive and its descriptors read its live queues.
 *     At exec the probe runs before the PTRACE_EVENT_EXEC stop. Signals that
 *     move never pass a signal-delivery-stop, as with any signalfd read.
 *   - Between the kernel's exec point of no return and the probe, or
 *     PF_EXITING and the probe, readers still take the live queues: that is
 *     before the point. pthread_join() can return before a creator thread's
 *     probe (do_exit() clears the thread id in exit_mm(), earlier); POLLHUP
 *     on the descriptor, or waitpid() for a process, says the point passed.
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
 *   creator's lock; a reader in another process redoes that under its own.
 *  SIGCHLD is delivered to any reader: the record names the child and its
 *  status, but reading it reaps nothing; only the creator's process can
 *  wait() for its children.
 *
 *  SIGKILL and SIGSTOP are dropped from masks. Only the creator's process
 *  (before any exec) may change the mask; others get EPERM. The module
 *  cannot be unloaded while a descriptor is open (fops.owner).
 */

#include <asm/ioctls.h>
#include <linux/anon_inodes.h>
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/hashtable.h>
#include <linux/kref.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/pid_namespace.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/signal.h>
#include <linux/signalfd.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <linux/uidgid.h>
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

enum sigfd_state {
	SIGFD_ALIVE,		/* the creator runs: read its queues */
	SIGFD_DRAINING,		/* its exit or exec probe is moving them */
	SIGFD_GONE,		/* moved: read the lists, then end of file */
};

/* One per creator thread, shared by all its descriptors. */
struct sigfd_creator {
	struct kref ref;		/* one per descriptor */
	struct task_struct *task;	/* pinned while it runs; NULL after */
	struct pid *pid;		/* its thread pid, for fdinfo and namespaces */
	enum sigfd_state state;		/* under the siglock and ->lock */
	spinlock_t lock;		/* ->state, ->ctxs, each ctx's records */
	struct list_head ctxs;		/* descriptors, oldest first (RCU) */
	wait_queue_head_t wqh;		/* readers and pollers of all of them */
	wait_queue_entry_t bridge;	/* on the creator's signalfd_wqh */
	wait_queue_head_t *bridged;	/* that queue; NULL once unhooked */
	struct timer_list recheck;	/* wakes ->wqh while a refusal holds */
	struct hlist_node node;		/* in sigfd_creators while it runs */
	struct rcu_head rcu;
};

struct sigfd_ctx {
	sigset_t mask;			/* wanted; written under the siglock */
	struct sigfd_creator *cr;
	struct file *file;		/* ours; freed after an RCU grace period */
	struct list_head node;		/* in cr->ctxs */
	struct list_head records;	/* moved at exit or exec, oldest first */
	unsigned int nr_records;
	unsigned int lost;		/* records left with the task: no memory */
	bool closed;
	struct rcu_head rcu;
};

/* One record: the signal, and its sender's uid out of the creator's user
 * namespace, so that it can be mapped into any reader's.
 */
struct sigfd_rec {
	struct list_head node;
	kernel_siginfo_t info;
	kuid_t uid;
};

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
 * the probes clear it before the creator can be reaped. NULL once it ran
 * its probe; otherwise the caller checks ->state under the lock.
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
	sigset_t wanted;
	unsigned int n;

	*ok = ctx->mask;
	if (current != tsk) {
		if (current->sighand != tsk->sighand)
			sigdelsetmask(ok, SIG_KERNEL_STOP_MASK);
		if (current->signal != tsk->signal && tsk->signal->it_real_incr)
			sigdelset(ok, SIGALRM);
		n = sigfd_scan(own, ok, SIGFD_HOLD_TIMERS | SIGFD_HOLD_FAULTS, count);
		n += sigfd_scan(shared, ok, SIGFD_HOLD_TIMERS, count);
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

/* The creator is gone: the next moved record, 0 at end of file, -EAGAIN
 * while its probe is still moving them.
 */
static int sigfd_take_moved(struct sigfd_ctx *ctx, struct sigfd_rec *out)
{
	struct sigfd_creator *cr = ctx->cr;
	struct sigfd_rec *rec;
	enum sigfd_state state;

	spin_lock_irq(&cr->lock);
	rec = list_first_entry_or_null(&ctx->records, struct sigfd_rec, node);
	if (rec) {
		list_del(&rec->node);
		ctx->nr_records--;
	}
	state = cr->state;
	spin_unlock_irq(&cr->lock);
	if (rec) {
		*out = *rec;
		kfree(rec);
		return out->info.si_signo;
	}
	return state == SIGFD_GONE ? 0 : -EAGAIN;
}

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
	if (ctx->cr->state != SIGFD_ALIVE) {
		spin_unlock_irqrestore(&tsk->sighand->siglock, flags);
		rcu_read_unlock();
		return sigfd_take_moved(ctx, rec);
	}
	foreign_lock = current->sighand != tsk->sighand;
	sigfd_allowed(ctx, tsk, &skip, false, refused);
	signotset(&skip);	/* dequeue_signal takes a "blocked" mask */
	sig = dequeue_signal(tsk, &skip, &rec->info, &type);
	if (sig)
		sigfd_note_uid(rec, tsk);
	spin_unlock_irqrestore(&tsk->sighand->siglock, flags);
	rcu_read_unlock();

	if (foreign_lock && sig) {
		/* dequeue_signal() recalculated our TIF_SIGPENDING without our
		 * siglock; a signal queued to us meanwhile could have lost it.
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
	unsigned int n = 0;
	sigset_t ok, any;

	*gone = false;
	*refused = false;
	rcu_read_lock();
	tsk = sigfd_lock_creator(cr, &flags);
	if (tsk && cr->state == SIGFD_ALIVE) {
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
	/* The probe may have run meanwhile: then the moved records count. */
	spin_lock_irq(&cr->lock);
	if (cr->state != SIGFD_ALIVE) {
		n = ctx->nr_records;
		*gone = cr->state == SIGFD_GONE;
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
		if (current->signal == tsk->signal && ctx->cr->state == SIGFD_ALIVE) {
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

/* Leave the creator's signalfd_wqh, once: the probe, the last release and
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
	struct sigfd_rec *rec, *next;
	LIST_HEAD(records);

	spin_lock_irq(&cr->lock);
	ctx->closed = true;	/* a probe running now keeps nothing for us */
	list_del_rcu(&ctx->node);
	list_splice_init(&ctx->records, &records);
	spin_unlock_irq(&cr->lock);
	list_for_each_entry_safe(rec, next, &records, node)
		kfree(rec);
	kfree_rcu(ctx, rcu);
	kref_put(&cr->ref, sigfd_creator_free);
	return 0;
}

static void sigfd_show_fdinfo(struct seq_file *m, struct file *file)
{
	struct sigfd_ctx *ctx = file->private_data;
	sigset_t mask;
	u64 bits = 0;
	int sig, i;

	for (i = 0; i < _NSIG_WORDS; i++)
		mask.sig[i] = READ_ONCE(ctx->mask.sig[i]);
	for (sig = 1; sig <= min(_NSIG, 64); sig++)
		if (sigismember(&mask, sig))
			bits |= 1ULL << (sig - 1);
	seq_printf(m, "sigmask:\t%016llx\ncreator:\t%d\nlost:\t%u\n", bits,
		   pid_vnr(ctx->cr->pid), READ_ONCE(ctx->lost));
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
	cr->pid = get_task_pid(current, PIDTYPE_PID);
	cr->state = SIGFD_ALIVE;
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
	INIT_LIST_HEAD(&ctx->records);
	err = -ENOMEM;
	ctx->cr = sigfd_creator_get();
	if (!ctx->cr)
		goto out_ctx;

	fd = get_unused_fd_flags(p.flags & SIGFD_KF_CLOEXEC ? O_CLOEXEC : 0);
	if (fd < 0) {
		err = fd;
		goto out_cr;
	}
	file = anon_inode_getfile("[sigfd]", &sigfd_fops, ctx,
				  O_RDWR | (p.flags & SIGFD_KF_NONBLOCK ? O_NONBLOCK : 0));
	if (IS_ERR(file)) {
		put_unused_fd(fd);
		err = PTR_ERR(file);
		goto out_cr;
	}
	ctx->file = file;
	spin_lock_irq(&ctx->cr->lock);
	list_add_tail_rcu(&ctx->node, &ctx->cr->ctxs);
	spin_unlock_irq(&ctx->cr->lock);
	fd_install(fd, file);
	return fd;

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
 * Under current's siglock: move the signals of @ctx's mask still pending
 * for current into its list. Each record is allocated before its signal is
 * taken, so a failed allocation takes nothing.
 */
static void sigfd_move(struct sigfd_creator *cr, struct sigfd_ctx *ctx, bool at_exit)
{
	struct sigfd_rec *rec;
	enum pid_type type;
	sigset_t skip = ctx->mask;

	/* See the header comment: do_exit() may have cancelled that timer. */
	if (at_exit && current->signal->it_real_incr)
		sigdelset(&skip, SIGALRM);
	signotset(&skip);
	for (;;) {
		rec = kmalloc(sizeof(*rec), GFP_NOWAIT | __GFP_ACCOUNT | __GFP_NOWARN);
		if (!rec) {
			/* Count what stays with the task, for fdinfo. */
			signotset(&skip);
			WRITE_ONCE(ctx->lost, ctx->lost +
				   sigfd_scan(&current->pending, &skip, 0, true) +
				   sigfd_scan(&current->signal->shared_pending, &skip, 0, true));
			return;
		}
		/* May drop and retake the siglock to rearm a posix timer. */
		if (!dequeue_signal(current, &skip, &rec->info, &type)) {
			kfree(rec);
			return;
		}
		sigfd_note_uid(rec, current);
		spin_lock(&cr->lock);
		if (ctx->closed) {
			/* Closed while we move: as if closed just after. */
			spin_unlock(&cr->lock);
			kfree(rec);
			continue;
		}
		list_add_tail(&rec->node, &ctx->records);
		ctx->nr_records++;
		spin_unlock(&cr->lock);
	}
}

/* Under RCU: creator @cr ends. See the header comment. */
static void sigfd_creator_ends(struct sigfd_creator *cr, bool at_exit)
{
	struct sighand_struct *sighand = current->sighand;
	struct sigfd_ctx *ctx;
	unsigned long flags;

	sigfd_unhash(cr);
	spin_lock_irqsave(&sighand->siglock, flags);
	spin_lock(&cr->lock);
	cr->state = SIGFD_DRAINING;
	spin_unlock(&cr->lock);
	/*
	 * The list is RCU: a descriptor closed meanwhile stays walkable. One
	 * whose last reference is gone (close-on-exec, say) gets nothing.
	 */
	list_for_each_entry_rcu(ctx, &cr->ctxs, node)
		if (file_count(ctx->file))
			sigfd_move(cr, ctx, at_exit);
	spin_lock(&cr->lock);
	cr->state = SIGFD_GONE;
	spin_unlock(&cr->lock);
	spin_unlock_irqrestore(&sighand->siglock, flags);

	wake_up_all(&cr->wqh);
	sigfd_unbridge(cr);
	sigfd_put_task(cr);
}

/*
 * The exit and exec probes: @p == current. There is one creator struct per
 * task, but one whose last descriptor is being released may still be in
 * the table beside a new one: end them all.
 */
static void sigfd_task_ends(struct task_struct *p, bool at_exit)
{
	struct sigfd_creator *cr;

	rcu_read_lock();
	hash_for_each_possible_rcu(sigfd_creators, cr, node, (unsigned long)p)
		if (READ_ONCE(cr->task) == p)
			sigfd_creator_ends(cr, at_exit);
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
	sigfd_task_ends(p, false);	/* the new program has not run yet */
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
	int err;

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

static void __exit sigfd_exit(void)
{
	misc_deregister(&sigfd_dev);
	tracepoint_probe_unregister(sigfd_tp_exec, sigfd_on_exec, NULL);
	tracepoint_probe_unregister(sigfd_tp_exit, sigfd_on_exit, NULL);
	tracepoint_synchronize_unregister();
}

module_init(sigfd_init);
module_exit(sigfd_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Signal descriptors bound to their creating task (the 2003 sigfd design)");
