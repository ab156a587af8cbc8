/* SPDX-License-Identifier: MIT */
/* The program's reads do not wake the forwarding thread while the share fd
 * still has room: the thread needs to hear of freed room only when it has
 * none. Woken by each record read (its writer's EPOLLOUT), it paid a switch
 * and three system calls per signal. Twenty records, each written alone,
 * wait unread; they are read one at a time, and after each read the test
 * waits for the thread to be asleep again. Its voluntary context switches,
 * one per wake-up, must not grow: they grew by one a read before. */
#include "share_util.h"

#define RECORDS 20

static long sleeps(pid_t tid)
{
	return thread_status_field(tid, "voluntary_ctxt_switches:", 0);
}

int main(void)
{
	sigset_t mask = set_of(SIGRTMIN);
	union sigval v;
	long before, after;
	pid_t tid;
	int fd;

	block_only(&mask);
	fd = sigfd(&mask, SIGFD_SHARE);
	CHECK(fd >= 0);
	/* One at a time, so that each record is a send of its own: a read
	 * frees a send's room only once the send is read whole. */
	for (int i = 0; i < RECORDS; i++) {
		v.sival_int = i + 1;
		CHECK(sigqueue(getpid(), SIGRTMIN, v) == 0);
		WAIT_UNTIL(queued_bytes(fd) == (i + 1) * (int)sizeof(struct sigfd_siginfo));
	}
	CHECK((tid = forwarder_tid()) > 0);
	WAIT_UNTIL(task_state(tid) == 'S');
	before = sleeps(tid);
	for (int i = 0; i < RECORDS; i++) {
		struct sigfd_siginfo r = read_one(fd);

		CHECK(r.ssi_signo == (uint32_t)SIGRTMIN && r.ssi_int == i + 1);
		/* A thread woken by the read is runnable when read() returns. */
		WAIT_UNTIL(task_state(tid) == 'S');
	}
	after = sleeps(tid);
	printf("forwarding thread: %ld wake-ups over %d reads\n", after - before, RECORDS);
	CHECK(after - before < RECORDS / 4);
	CHECK(close(fd) == 0);
	return 0;
}
