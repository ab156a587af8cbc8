/* SPDX-License-Identifier: MIT */
/* A standard signal never coalesces into a record that is being discarded.
 * Share fd A holds an unread SIGUSR1; its last copy is closed and SIGUSR1
 * sent again while the forwarding thread is about to read its signalfd
 * (held at a gate, forwarder_gate.h: the race of issue 17, made to go the
 * losing way every time). The new SIGUSR1 must not merge into A's record,
 * which goes with A: it comes back to the process's queue, pending. The
 * user-space backend only (the guest tiers do not build this wrap). */
#include "forwarder_gate.h"

int main(void)
{
	sigset_t usr1 = set_of(SIGUSR1), usr2 = set_of(SIGUSR2), both = usr1;
	int a, waker;

	CHECK(setenv("SIGFD_BACKEND", "user", 1) == 0);
	sigaddset(&both, SIGUSR2);
	block_only(&both);
	a = sigfd(&usr1, SIGFD_SHARE);
	waker = sigfd(&usr2, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(a >= 0 && waker >= 0);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	WAIT_UNTIL(queued_bytes(a) == 128);

	/* The thread wakes for SIGUSR2 and stops before its read. */
	gate_close_then_send(a, SIGUSR2, SIGUSR1);

	/* Returns once the thread is done with that batch. */
	CHECK(sigfd_setmask(waker, &usr2) == 0);
	WAIT_UNTIL(poll_events(waker, POLLIN, 0));
	CHECK(read_one(waker).ssi_signo == SIGUSR2);
	if (!pending_has(SIGUSR1)) {
		fprintf(stderr, "SIGUSR1 sent after the close was merged into the discarded record\n");
		leak_check_off();
		return 1;
	}
	siginfo_t si;
	struct timespec now = { 0, 0 };
	CHECK(sigtimedwait(&usr1, &si, &now) == SIGUSR1);
	CHECK(si.si_code == SI_USER && si.si_pid == getpid());
	CHECK(close(waker) == 0);
	gate_close_fds();
	return 0;
}
