/* SPDX-License-Identifier: MIT */
/* A creator's exit frees each legacy record over RLIMIT_SIGPENDING through
 * its own queue, with interrupts off. That free was a dequeue that looked
 * through all the creator had pending for a second instance: with QUEUED
 * real-time signals in its own queue that no descriptor wants (so they
 * stay there) and its limit lowered to 0 just before it exits, each of its
 * 2 x LEGACY legacy records (its own queue's and its process's) walked
 * QUEUED entries (issue 28's review: 56 x RLIMIT_SIGPENDING steps an exit,
 * repeatable by any user). The free now sets the queue aside while it
 * takes the record. Checked: the descriptor reads every legacy signal once
 * (the kernel keeps a signal with no queue space as one), then end of
 * file, and closing it drops every charge. The exit's time is printed
 * (the work with interrupts off is most of it): a figure, not a check. */
#include <sys/resource.h>
#include <sys/syscall.h>

#include "kmod_util.h"
#include "creator_util.h"

#define QUEUED 20000
#define LEGACY 28

/* The creator: legacy signals to itself (its own queue) and to its process,
 * QUEUED real-time ones to itself, then its limit to 0, and it exits. */
static _Noreturn void creator(uint64_t mask, const sigset_t *legacy, int link, int go)
{
	struct rlimit lim;
	siginfo_t si = { .si_signo = SIGRTMIN + 1, .si_code = SI_QUEUE };
	pid_t tid = (pid_t)syscall(SYS_gettid);
	int fd = raw_create(mask, SIGFD_KF_NONBLOCK);

	CHECK(fd >= 0);
	send_fd(link, fd);
	for (int sig = 1; sig < 32; sig++)
		if (sigismember(legacy, sig))
			CHECK(syscall(SYS_tgkill, getpid(), tid, sig) == 0 && kill(getpid(), sig) == 0);
	si.si_pid = getpid();
	si.si_uid = getuid();
	for (int i = 0; i < QUEUED; i++)
		CHECK(syscall(SYS_rt_tgsigqueueinfo, getpid(), tid, SIGRTMIN + 1, &si) == 0);
	get_byte(go);
	CHECK(getrlimit(RLIMIT_SIGPENDING, &lim) == 0);
	lim.rlim_cur = 0;
	CHECK(setrlimit(RLIMIT_SIGPENDING, &lim) == 0);
	_exit(0);
}

int main(void)
{
	struct rlimit lim = { QUEUED + 4 * LEGACY, QUEUED + 4 * LEGACY };
	int fds_before = fd_count(), link[2], go[2], fd, n;
	sigset_t all, legacy;
	uint64_t mask = legacy_mask(&legacy);
	struct sigfd_siginfo r[64];
	double start;
	long base;
	pid_t child;

	sigfillset(&all);
	block_only(&all);
	CHECK(setrlimit(RLIMIT_SIGPENDING, &lim) == 0);
	base = sigq_used();
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, link) == 0);
	CHECK(pipe2(go, O_CLOEXEC) == 0);
	child = fork();
	CHECK(child >= 0);
	if (child == 0)
		creator(mask, &legacy, link[1], go[0]);
	fd = recv_fd(link[0]);
	close_pair(link);
	CHECK(close(go[0]) == 0);
	WAIT_UNTIL(sigq_used() - base >= QUEUED + 2 * LEGACY);
	start = now_us();
	put_byte(go[1]);
	reap_ok(child);
	printf("exit_over_limit_long_queue: %d records over the limit freed at exit beside %d queued "
	       "real-time signals: the exit took %.0f us\n",
	       2 * LEGACY, QUEUED, now_us() - start);
	CHECK(close(go[1]) == 0);
	for (n = 0;;) {
		ssize_t got = read(fd, r, sizeof r);

		if (got <= 0) {
			CHECK(got == 0);
			break;
		}
		CHECK(got % (ssize_t)sizeof r[0] == 0);
		for (int i = 0; i < got / (ssize_t)sizeof r[0]; i++)
			CHECK(sigismember(&legacy, (int)r[i].ssi_signo) == 1);
		n += (int)(got / (ssize_t)sizeof r[0]);
	}
	/* Each signal pending in both queues: one record a queue. */
	CHECK(n == 2 * LEGACY);
	CHECK(close(fd) == 0);
	/* Our SIGCHLD for the creator, blocked here, holds a charge too. */
	while (sigtimedwait(&all, NULL, &(struct timespec){ 0, 0 }) > 0)
		;
	CHECK(sigq_used() == base);
	CHECK(fd_count() == fds_before);
	return 0;
}
