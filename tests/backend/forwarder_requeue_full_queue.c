/* SPDX-License-Identifier: MIT */
/* A signal the kernel accepted is never dropped, even when it cannot go
 * back to the queue it came from. The forwarding thread takes a queued
 * SIGRTMIN for share fd A; before it writes, A's last copy is closed (so
 * the record must go back) and the user's queue is filled up to
 * RLIMIT_SIGPENDING (so rt_sigqueueinfo() refuses it with EAGAIN): both in
 * the window after the thread's read, held at a gate (forwarder_gate.h).
 * Once the queue has room again the signal must be pending, value and
 * origin intact. The user-space backend only.
 * run-alone: it fills the user's signal queue, which all of the user's
 * processes share, to the limit. */
#include <sys/resource.h>

#include "forwarder_gate.h"

int main(void)
{
	int sig = SIGRTMIN, filler = SIGRTMIN + 1, syncer = SIGRTMIN + 2;
	sigset_t mask = set_of(sig), fill = set_of(filler), sync_mask = set_of(syncer), all = mask;
	struct rlimit old, low;
	struct timespec now = { 0, 0 }, later = { 10, 0 };
	siginfo_t si;
	int a, sync_fd, fillers = 0;

	CHECK(setenv("SIGFD_BACKEND", "user", 1) == 0);
	sigaddset(&all, filler);
	sigaddset(&all, syncer);
	block_only(&all);
	a = sigfd(&mask, SIGFD_SHARE);
	sync_fd = sigfd(&sync_mask, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(a >= 0 && sync_fd >= 0);
	/* Room for this test's signals only; other processes of the user
	 * may move the count meanwhile, which only makes room. */
	CHECK(getrlimit(RLIMIT_SIGPENDING, &old) == 0);
	low = old;
	low.rlim_cur = (rlim_t)thread_status_field(getpid(), "SigQ:", 0) + 64;
	CHECK(setrlimit(RLIMIT_SIGPENDING, &low) == 0);

	gate_arm(GATE_AFTER_READ);
	CHECK(sigqueue(getpid(), sig, int_val(4242)) == 0);
	gate_wait();
	CHECK(close(a) == 0);
	while (sigqueue(getpid(), filler, int_val(fillers)) == 0)
		fillers++;
	CHECK(errno == EAGAIN && fillers > 0);
	gate_open();
	/* Returns once the thread is done with that batch. */
	CHECK(sigfd_setmask(sync_fd, &sync_mask) == 0);

	/* Make room, then the signal must come back. */
	for (int i = 0; i < fillers; i++) {
		CHECK(sigtimedwait(&fill, &si, &now) == filler);
		CHECK(si.si_value.sival_int == i);
	}
	CHECK(setrlimit(RLIMIT_SIGPENDING, &old) == 0);
	if (sigtimedwait(&mask, &si, &later) != sig) {
		fprintf(stderr, "the signal refused by a full queue was dropped\n");
		leak_check_off();
		return 1;
	}
	CHECK(si.si_code == SI_QUEUE && si.si_pid == getpid() && si.si_value.sival_int == 4242);
	CHECK(sigtimedwait(&mask, &si, &now) == -1 && errno == EAGAIN);
	CHECK(close(sync_fd) == 0);
	gate_close_fds();
	return 0;
}
