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
#include "forwarder_gate.h"
#include "full_queue.h"

int main(void)
{
	int sig = SIGRTMIN, filler = SIGRTMIN + 1, syncer = SIGRTMIN + 2;
	sigset_t mask = set_of(sig), sync_mask = set_of(syncer), all = mask;
	struct rlimit old;
	int a, sync_fd, fillers;

	CHECK(setenv("SIGFD_BACKEND", "user", 1) == 0);
	sigaddset(&all, filler);
	sigaddset(&all, syncer);
	block_only(&all);
	a = sigfd(&mask, SIGFD_SHARE);
	sync_fd = sigfd(&sync_mask, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(a >= 0 && sync_fd >= 0);
	queue_limit_low(&old);

	gate_arm(GATE_AFTER_READ);
	CHECK(sigqueue(getpid(), sig, int_val(4242)) == 0);
	gate_wait();
	CHECK(close(a) == 0);
	fillers = queue_fill(filler);
	gate_open();
	/* Returns once the thread is done with that batch. */
	CHECK(sigfd_setmask(sync_fd, &sync_mask) == 0);

	/* Make room, then the signal must come back. */
	queue_make_room(filler, fillers, &old);
	if (queue_gave_back(sig, 4242, "the signal refused by a full queue was dropped")) {
		leak_check_off();
		return 1;
	}
	CHECK(close(sync_fd) == 0);
	gate_close_fds();
	return 0;
}
