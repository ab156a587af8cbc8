/* SPDX-License-Identifier: MIT */
/* A record routed to a share fd whose last copy was just closed goes to
 * another share fd that takes the signal, in the same batch; it is never put
 * back in the kernel's queue while one is open. Share fds A then B take
 * SIGUSR1; A is closed and SIGUSR1 sent while the forwarding thread stands
 * before its read (forwarder_gate.h), so the thread routes it to A, whose
 * hang-up it has not seen yet. Once that batch is done, B must hold the
 * record. Before: put back pending, so a sigfd() made just then found it not
 * readable at once (readiness_after_setmask failed in CI under TSan). B's
 * readiness alone could miss that: the thread may take the put-back signal
 * again and route it to B before the test looks. So syscall() is wrapped
 * too (the Makefile): every put-back of SIGUSR1 (rt_sigqueueinfo) is
 * counted, and there must be none. The user-space backend only (the guest
 * tiers do not build these wraps). */
#include <stdarg.h>
#include <sys/syscall.h>

#include "forwarder_gate.h"
#include "syscall_args.h"

static _Atomic int put_back;


long __wrap_syscall(long number, ...)
{
	long a[SYSCALL_NARGS];

	SYSCALL_ARGS(a, number);
	if (number == SYS_rt_sigqueueinfo && a[1] == SIGUSR1)
		atomic_fetch_add(&put_back, 1);
	return REAL_SYSCALL(number, a);
}

int main(void)
{
	sigset_t usr1 = set_of(SIGUSR1), usr2 = set_of(SIGUSR2), both = usr1;
	int waker, missed = 0;

	CHECK(setenv("SIGFD_BACKEND", "user", 1) == 0);
	sigaddset(&both, SIGUSR2);
	block_only(&both);
	waker = sigfd(&usr2, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(waker >= 0);
	for (int round = 0; round < 20; round++) {
		/* A first: the thread routes a signal to the first that takes it. */
		int a = sigfd(&usr1, SIGFD_SHARE), b = sigfd(&usr1, SIGFD_SHARE | SIGFD_NONBLOCK);
		CHECK(a >= 0 && b >= 0);

		gate_close_then_send(a, SIGUSR2, SIGUSR1);
		/* Returns once the thread is done with that batch. */
		CHECK(sigfd_setmask(waker, &usr2) == 0);
		if (poll_events(b, POLLIN, 0) != POLLIN)
			missed++;
		WAIT_UNTIL(poll_events(b, POLLIN, 0) && poll_events(waker, POLLIN, 0));
		CHECK(read_one(b).ssi_signo == SIGUSR1);
		CHECK(read_one(waker).ssi_signo == SIGUSR2);
		CHECK(close(b) == 0);
	}
	CHECK(close(waker) == 0);
	gate_close_fds();
	if (missed || put_back) {
		fprintf(stderr, "%d of 20 rounds: B not readable after the batch; "
			"SIGUSR1 put back in the kernel's queue %d times\n", missed, put_back);
		return 1;
	}
	return 0;
}
