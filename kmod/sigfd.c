// SPDX-License-Identifier: GPL-2.0
/*
 *  sigfd.ko: signal descriptors bound to the task that created them
 *
 *  The 2003 sigfd() design as a module: ioctl(SIGFD_IOC_CREATE) on /dev/sigfd
 *  returns a descriptor bound to the calling thread, "the creator". Whoever
 *  holds it (after fork, through SCM_RIGHTS) reads the creator's signals, as
 *  128-byte struct signalfd_siginfo records filled as fs/signalfd.c fills
 *  them. Once the creator exits or execs, read() returns 0 and poll() says
 *  POLLIN|POLLHUP; signals still pending then stay with (or die with) it.
 *
 *  What the descriptor reports: the creator thread's private queue and its
 *  process's shared queue, exactly what a signalfd in the creator thread
 *  would see. Signals directed at other threads of the creator's process
 *  are not reported; they belong to those threads.
 *
 *  Binding. We pin the creator's task_struct and remember its self_exec_id:
 *  the creator is gone once it has PF_EXITING or a different exec id. Both
 *  are read under the creator's siglock, in the same critical section as the
 *  dequeue, so nothing is taken from the new program of an exec (a pointer
 *  comparison could be fooled by a reused allocation; a pinned task plus its
 *  exec counter cannot). We never pin the sighand (its last put frees it
 *  from a cache we cannot reach): one wait entry of ours sits on the
 *  creator's sighand->signalfd_wqh, which every queued signal wakes, and
 *  unhooks itself on the POLLFREE wakeup when that sighand is freed, as
 *  epoll does; readers and pollers wait on a queue of ours. Exit and exec
 *  wake nothing there, so probes on the sched_process_exit/exec tracepoints
 *  wake the descriptors of that task.
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
#include <linux/fs.h>
#include <linux/hashtable.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/signal.h>
#include <linux/signalfd.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <linux/version.h>

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
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#error "sigfd.ko needs Linux before 6.12: since 6.12 dequeue_signal() serves only current"
#endif

struct sigfd_ctx {
	sigset_t mask;			/* wanted; under the creator's siglock */
	struct task_struct *tsk;	/* the creator, pinned */
	u64 exec_id;			/* its self_exec_id when it created us */
	wait_queue_head_t wqh;		/* our readers and pollers */
	wait_queue_entry_t bridge;	/* on the creator's signalfd_wqh */
	wait_queue_head_t *bridged;	/* that queue; NULL once POLLFREE unhooked us */
	struct hlist_node node;		/* in sigfd_creators, keyed by tsk */
	struct rcu_head rcu;
};

/* Descriptors by creator, for the exit and exec probes (RCU readers). */
static DEFINE_HASHTABLE(sigfd_creators, 7);
static DEFINE_SPINLOCK(sigfd_creators_lock);

#define SIGFD_FAULT_MASK (sigmask(SIGSEGV) | sigmask(SIGBUS) | sigmask(SIGILL) | \
			  sigmask(SIGTRAP) | sigmask(SIGFPE) | sigmask(SIGSYS))

/* lock_task_sighand() is not exported: the same RCU walk, open-coded. The
 * sighand cache is SLAB_TYPESAFE_BY_RCU, so the lock stays a lock while we
 * look, and tsk->sighand cannot change once we hold it. */
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

/* Under the creator's siglock: is it still the program that created us? */
static bool sigfd_alive(const struct sigfd_ctx *ctx)
{
	return !(READ_ONCE(ctx->tsk->flags) & PF_EXITING) &&
	       READ_ONCE(ctx->tsk->self_exec_id) == ctx->exec_id;
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
 * Under the creator's siglock: the signals current may take now (into @ok)
 * and, with @count, how many records a read could return. See the header
 * comment for why each refusal is there.
 */
static unsigned int sigfd_allowed(struct sigfd_ctx *ctx, struct sighand_struct *sighand,
				  sigset_t *ok, bool count)
{
	struct task_struct *tsk = ctx->tsk;
	unsigned int n;

	*ok = ctx->mask;
	if (current != tsk) {
		if (current->sighand != sighand)
			sigdelsetmask(ok, SIG_KERNEL_STOP_MASK);
		if (current->signal != tsk->signal && tsk->signal->it_real_incr)
			sigdelset(ok, SIGALRM);
		n = sigfd_scan(&tsk->pending, ok, SIGFD_HOLD_TIMERS | SIGFD_HOLD_FAULTS, count);
		return n + sigfd_scan(&tsk->signal->shared_pending, ok, SIGFD_HOLD_TIMERS, count);
	}
	if (!count)
		return 0;
	/* The creator itself: every wanted signal is fair game. */
	n = sigfd_scan(&tsk->pending, ok, 0, true);
	return n + sigfd_scan(&tsk->signal->shared_pending, ok, 0, true);
}

/* Take one record: the signal number, 0 once the creator is gone, or -EAGAIN. */
static int sigfd_take(struct sigfd_ctx *ctx, kernel_siginfo_t *info)
{
	struct sighand_struct *sighand;
	unsigned long flags;
	sigset_t skip;
	bool foreign_lock;
	enum pid_type type;
	int sig = 0;

	sighand = sigfd_lock(ctx->tsk, &flags);
	if (!sighand)
		return 0;
	foreign_lock = current->sighand != sighand;
	if (sigfd_alive(ctx)) {
		sigfd_allowed(ctx, sighand, &skip, false);
		signotset(&skip);	/* dequeue_signal takes a "blocked" mask */
		sig = dequeue_signal(ctx->tsk, &skip, info, &type) ?: -EAGAIN;
	}
	spin_unlock_irqrestore(&sighand->siglock, flags);

	if (foreign_lock && sig) {
		/* dequeue_signal() recalculated our TIF_SIGPENDING without our
		 * siglock; a signal queued to us meanwhile could have lost it. */
		spin_lock_irq(&current->sighand->siglock);
		recalc_sigpending();
		spin_unlock_irq(&current->sighand->siglock);
	}
	return sig;
}

static int sigfd_dequeue(struct sigfd_ctx *ctx, kernel_siginfo_t *info, bool nonblock)
{
	DEFINE_WAIT(wait);
	int ret;

	ret = sigfd_take(ctx, info);
	if (ret != -EAGAIN || nonblock)
		return ret;
	for (;;) {
		prepare_to_wait(&ctx->wqh, &wait, TASK_INTERRUPTIBLE);
		ret = sigfd_take(ctx, info);
		if (ret != -EAGAIN)
			break;
		if (signal_pending(current)) {
			ret = -ERESTARTSYS;
			break;
		}
		schedule();
	}
	finish_wait(&ctx->wqh, &wait);
	return ret;
}

/* siginfo_layout() is not exported. This is its answer on x86, folded the
 * way signalfd_copyinfo() folds it: every fault variant but MCEERR copies
 * only the address. */
static enum siginfo_layout sigfd_layout(int sig, int code)
{
	int limit;

	if (code > SI_USER && code < SI_KERNEL) {
		switch (sig) {
		case SIGILL:  limit = NSIGILL;  break;
		case SIGFPE:  limit = NSIGFPE;  break;
		case SIGSEGV: limit = NSIGSEGV; break;
		case SIGBUS:  limit = NSIGBUS;  break;
		case SIGTRAP: limit = NSIGTRAP; break;
		case SIGCHLD: limit = NSIGCHLD; break;
		case SIGPOLL: limit = NSIGPOLL; break;
		case SIGSYS:  limit = NSIGSYS;  break;
		default:      limit = 0;        break;
		}
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

static int sigfd_copyinfo(struct signalfd_siginfo __user *uinfo, const kernel_siginfo_t *kinfo)
{
	struct signalfd_siginfo new;

	BUILD_BUG_ON(sizeof(struct signalfd_siginfo) != 128);
	memset(&new, 0, sizeof(new));	/* unused members are zero */
	new.ssi_signo = kinfo->si_signo;
	new.ssi_errno = kinfo->si_errno;
	new.ssi_code = kinfo->si_code;
	switch (sigfd_layout(kinfo->si_signo, kinfo->si_code)) {
	case SIL_KILL:
		new.ssi_pid = kinfo->si_pid;
		new.ssi_uid = kinfo->si_uid;
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
		new.ssi_pid = kinfo->si_pid;
		new.ssi_uid = kinfo->si_uid;
		new.ssi_status = kinfo->si_status;
		new.ssi_utime = kinfo->si_utime;
		new.ssi_stime = kinfo->si_stime;
		break;
	case SIL_RT:	/* also what sigqueue() sends */
		new.ssi_pid = kinfo->si_pid;
		new.ssi_uid = kinfo->si_uid;
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
	kernel_siginfo_t info;
	ssize_t total = 0;
	int ret;

	count /= sizeof(*urec);
	if (!count)
		return -EINVAL;
	do {
		ret = sigfd_dequeue(ctx, &info, nonblock);
		if (ret <= 0)
			break;
		ret = sigfd_copyinfo(urec++, &info);
		if (ret < 0)
			break;
		total += ret;
		nonblock = true;	/* block for the first record only */
	} while (--count);
	return total ? total : ret;
}

/* Records a read would return now, or -1 once the creator is gone. */
static long sigfd_ready(struct sigfd_ctx *ctx, bool count)
{
	struct sighand_struct *sighand;
	unsigned long flags;
	sigset_t ok;
	long n = -1;

	sighand = sigfd_lock(ctx->tsk, &flags);
	if (!sighand)
		return -1;
	if (sigfd_alive(ctx)) {
		n = sigfd_allowed(ctx, sighand, &ok, count);
		if (!count) {
			sigset_t *p = &ctx->tsk->pending.signal;
			sigset_t *s = &ctx->tsk->signal->shared_pending.signal;
			sigset_t any;

			sigorsets(&any, p, s);
			sigandsets(&any, &any, &ok);
			n = !sigisemptyset(&any);
		}
	}
	spin_unlock_irqrestore(&sighand->siglock, flags);
	return n;
}

static __poll_t sigfd_poll(struct file *file, poll_table *wait)
{
	struct sigfd_ctx *ctx = file->private_data;
	long n;

	poll_wait(file, &ctx->wqh, wait);
	n = sigfd_ready(ctx, false);
	if (n < 0)
		return EPOLLIN | EPOLLHUP;
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
	struct sighand_struct *sighand;
	struct sigfd_params p;
	unsigned long flags;
	sigset_t mask;
	int err;

	err = sigfd_get_params(&p, &mask, uarg);
	if (err)
		return err;
	if (p.flags)
		return -EINVAL;
	sighand = sigfd_lock(ctx->tsk, &flags);
	if (!sighand)
		return -EPERM;
	err = -EPERM;
	if (current->signal == ctx->tsk->signal && sigfd_alive(ctx)) {
		ctx->mask = mask;
		err = 0;
	}
	spin_unlock_irqrestore(&sighand->siglock, flags);
	if (!err)
		wake_up_all(&ctx->wqh);	/* a signal now wanted may be pending */
	return err;
}

static long sigfd_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct sigfd_ctx *ctx = file->private_data;
	long n;

	if (cmd == FIONREAD) {
		n = sigfd_ready(ctx, true);
		n = n < 0 ? 0 : n * sizeof(struct signalfd_siginfo);
		return put_user((int)min_t(long, n, INT_MAX), (int __user *)arg);
	}
	if (_IOC_TYPE(cmd) == SIGFD_IOC_MAGIC && _IOC_NR(cmd) == _IOC_NR(SIGFD_IOC_SETMASK))
		return sigfd_setmask(ctx, (const struct sigfd_params __user *)arg);
	return -ENOTTY;
}

static void sigfd_free(struct sigfd_ctx *ctx)
{
	wait_queue_head_t *whead;

	spin_lock(&sigfd_creators_lock);
	hash_del_rcu(&ctx->node);
	spin_unlock(&sigfd_creators_lock);
	/* As ep_remove_wait_queue(): if POLLFREE has not unhooked us yet, the
	 * sighand is still there, or at least still a sighand, under RCU. */
	rcu_read_lock();
	whead = smp_load_acquire(&ctx->bridged);
	if (whead)
		remove_wait_queue(whead, &ctx->bridge);
	rcu_read_unlock();
	put_task_struct(ctx->tsk);
	kfree_rcu(ctx, rcu);	/* the probes may still be looking at it */
}

static int sigfd_release(struct inode *inode, struct file *file)
{
	sigfd_free(file->private_data);
	return 0;
}

static void sigfd_show_fdinfo(struct seq_file *m, struct file *file)
{
	struct sigfd_ctx *ctx = file->private_data;
	u64 mask = 0;
	int sig;

	for (sig = 1; sig <= min(_NSIG, 64); sig++)
		if (sigismember(&ctx->mask, sig))
			mask |= 1ULL << (sig - 1);
	seq_printf(m, "sigmask:\t%016llx\ncreator:\t%d\n", mask,
		   task_pid_vnr(ctx->tsk));
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
 * its queue before returning, as epoll does. */
static int sigfd_bridge_wake(wait_queue_entry_t *wait, unsigned int mode, int sync, void *key)
{
	struct sigfd_ctx *ctx = container_of(wait, struct sigfd_ctx, bridge);

	wake_up(&ctx->wqh);
	if (key_to_poll(key) & POLLFREE) {
		list_del_init(&wait->entry);
		smp_store_release(&ctx->bridged, NULL);
	}
	return 0;
}

static long sigfd_create(const struct sigfd_params __user *uarg)
{
	struct sigfd_params p;
	struct sigfd_ctx *ctx;
	int fd, err;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL_ACCOUNT);
	if (!ctx)
		return -ENOMEM;
	err = sigfd_get_params(&p, &ctx->mask, uarg);
	if (!err && (p.flags & ~(SIGFD_KF_NONBLOCK | SIGFD_KF_CLOEXEC)))
		err = -EINVAL;
	if (err) {
		kfree(ctx);
		return err;
	}
	ctx->tsk = get_task_struct(current);
	ctx->exec_id = current->self_exec_id;
	init_waitqueue_head(&ctx->wqh);
	init_waitqueue_func_entry(&ctx->bridge, sigfd_bridge_wake);
	/* current's sighand cannot change under us: only its own exec does that. */
	ctx->bridged = &current->sighand->signalfd_wqh;
	add_wait_queue(ctx->bridged, &ctx->bridge);
	spin_lock(&sigfd_creators_lock);
	hash_add_rcu(sigfd_creators, &ctx->node, (unsigned long)current);
	spin_unlock(&sigfd_creators_lock);

	fd = anon_inode_getfd("[sigfd]", &sigfd_fops, ctx,
			      O_RDWR | (p.flags & SIGFD_KF_NONBLOCK ? O_NONBLOCK : 0) |
			      (p.flags & SIGFD_KF_CLOEXEC ? O_CLOEXEC : 0));
	if (fd < 0)
		sigfd_free(ctx);
	return fd;
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

/* Exit and exec of a creator: its descriptors must see EOF now. */
static void sigfd_creator_changed(struct task_struct *p)
{
	struct sigfd_ctx *ctx;

	rcu_read_lock();
	hash_for_each_possible_rcu(sigfd_creators, ctx, node, (unsigned long)p)
		if (ctx->tsk == p)
			wake_up_all(&ctx->wqh);
	rcu_read_unlock();
}

static void sigfd_on_exit(void *data, struct task_struct *p)
{
	sigfd_creator_changed(p);	/* PF_EXITING is already set */
}

static void sigfd_on_exec(void *data, struct task_struct *p, pid_t old_pid,
			  struct linux_binprm *bprm)
{
	sigfd_creator_changed(p);	/* self_exec_id is already bumped */
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

	for_each_kernel_tracepoint(sigfd_find_tracepoint, NULL);
	if (!sigfd_tp_exit || !sigfd_tp_exec)
		return -ENOENT;
	err = tracepoint_probe_register(sigfd_tp_exit, (void *)sigfd_on_exit, NULL);
	if (err)
		return err;
	err = tracepoint_probe_register(sigfd_tp_exec, (void *)sigfd_on_exec, NULL);
	if (err)
		goto out_exit;
	err = misc_register(&sigfd_dev);
	if (err)
		goto out_exec;
	return 0;

out_exec:
	tracepoint_probe_unregister(sigfd_tp_exec, (void *)sigfd_on_exec, NULL);
out_exit:
	tracepoint_probe_unregister(sigfd_tp_exit, (void *)sigfd_on_exit, NULL);
	tracepoint_synchronize_unregister();
	return err;
}

static void __exit sigfd_exit(void)
{
	misc_deregister(&sigfd_dev);
	tracepoint_probe_unregister(sigfd_tp_exec, (void *)sigfd_on_exec, NULL);
	tracepoint_probe_unregister(sigfd_tp_exit, (void *)sigfd_on_exit, NULL);
	tracepoint_synchronize_unregister();
}

module_init(sigfd_init);
module_exit(sigfd_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Signal descriptors bound to their creating task (the 2003 sigfd design)");
