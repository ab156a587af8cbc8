/* SPDX-License-Identifier: MIT */
/* A signal the kernel accepted is never dropped, also when the program
 * closes every descriptor of the library's while the forwarding thread
 * holds it. The thread takes a queued SIGRTMIN for share fd A and stops at
 * a gate (forwarder_gate.h); there A, the only other share fd and the
 * library's end of the door are closed (as a closefrom() would), and the
 * user's queue is filled up to RLIMIT_SIGPENDING, so that the record can
 * go back neither to a share fd nor to the queue: the thread holds it and
 * offers it to the queue every 10 ms. With the door closed and no writer
 * left nothing can reach the thread, and it ended, dropping what it held
 * (issue 28's review). It must hold the record until the queue has room:
 * once rt_sigqueueinfo() has refused it REFUSALS times (the thread ended
 * after 2 or 3) or the thread has ended, room is made, and the signal must
 * come back pending, value and origin intact. The user-space backend only.
 * run-alone: it fills the user's signal queue, which all of the user's
 * processes share, to the limit. */
#include <sys/syscall.h>

#include "forwarder_gate.h"
#include "full_queue.h"
#include "syscall_args.h"

#define REFUSALS 6

long __wrap_syscall(long number, ...);

static atomic_int refusals;

long __wrap_syscall(long number, ...)
{
	long a[SYSCALL_NARGS], r;

	SYSCALL_ARGS(a, number);
	r = REAL_SYSCALL(number, a);
	if (number == SYS_rt_sigqueueinfo && r < 0 && errno == EAGAIN)
		atomic_fetch_add(&refusals, 1);
	return r;
}

int main(void)
{
	int sig = SIGRTMIN, filler = SIGRTMIN + 1, other = SIGRTMIN + 2;
	sigset_t mask = set_of(sig), other_mask = set_of(other), all = mask;
	struct rlimit old;
	int a, b, door, fillers;
	char lost[80];

	CHECK(setenv("SIGFD_BACKEND", "user", 1) == 0);
	sigaddset(&all, filler);
	sigaddset(&all, other);
	block_only(&all);
	a = sigfd(&mask, SIGFD_SHARE);
	b = sigfd(&other_mask, SIGFD_SHARE);
	CHECK(a >= 0 && b >= 0);
	CHECK(close(b) == 0);
	door = library_door(a);
	CHECK(door >= 0);
	queue_limit_low(&old);

	gate_arm(GATE_AFTER_READ);
	CHECK(sigqueue(getpid(), sig, int_val(4242)) == 0);
	gate_wait();
	CHECK(close(a) == 0 && close(door) == 0);
	fillers = queue_fill(filler);
	gate_open();
	WAIT_UNTIL(atomic_load(&refusals) >= REFUSALS || forwarders() == 0);

	/* Make room, then the signal must come back. */
	queue_make_room(filler, fillers, &old);
	snprintf(lost, sizeof lost, "the signal held with the door closed was dropped (%d refusals)",
		 atomic_load(&refusals));
	if (queue_gave_back(sig, 4242, lost)) {
		leak_check_off();
		return 1;
	}
	WAIT_UNTIL(forwarders() == 0);
	gate_close_fds();
	return 0;
}
