/* SPDX-License-Identifier: MIT */
/* A creator stopped (SIGSTOP) and continued (SIGCONT) keeps its share fd
 * working: after a stop, Linux ends a blocked epoll_wait() with EINTR even
 * without a handler (signal(7)), which the forwarding thread must take as
 * "look again", and a signal queued while the creator is stopped is read
 * once it runs. */
#include "share_util.h"

#define ROUNDS 20

int main(void)
{
	sigset_t mask = set_of(SIGRTMIN);
	pid_t me = getpid(), child;
	int fd, done[2], ack[2];

	block_only(&mask);
	fd = sigfd(&mask, SIGFD_SHARE);
	CHECK(fd >= 0);
	CHECK(pipe(done) == 0 && pipe(ack) == 0);
	child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		for (int i = 0; i < ROUNDS; i++) {
			CHECK(kill(me, SIGSTOP) == 0);
			WAIT_UNTIL(task_state(me) == 'T' || task_state(me) == 't'); /* 't': traced */
			/* Queued while the creator is stopped. */
			CHECK(sigqueue(me, SIGRTMIN, int_val(i)) == 0);
			CHECK(kill(me, SIGCONT) == 0);
			put_byte(done[1]);
			get_byte(ack[0]); /* the creator has read both */
		}
		_exit(0);
	}
	for (int i = 0; i < ROUNDS; i++) {
		get_byte(done[0]);
		CHECK(read_one(fd).ssi_int == i);
		/* And one sent after the stop, by ourselves. */
		CHECK(sigqueue(me, SIGRTMIN, int_val(ROUNDS + i)) == 0);
		CHECK(read_one(fd).ssi_int == ROUNDS + i);
		put_byte(ack[1]);
	}
	reap_ok(child);
	CHECK(close(fd) == 0);
	close_pair(done);
	close_pair(ack);
	return 0;
}
