/* SPDX-License-Identifier: MIT */
/* Readers that die: 16 children block in read() on the parent's
 * descriptor and are killed, and one is killed while it takes a flood of
 * signals; the parent's signals and the descriptor are unharmed after. */
#include "kmod_util.h"

#define READERS 16

/* Read every queued record: the values only increase. */
static void drain_in_order(int fd, int *last)
{
	struct sigfd_siginfo r;

	while (read(fd, &r, sizeof r) == (ssize_t)sizeof r) {
		CHECK(r.ssi_signo == (uint32_t)SIGRTMIN && r.ssi_int > *last);
		*last = r.ssi_int;
	}
	CHECK(errno == EAGAIN);
}

int main(void)
{
	sigset_t mask;
	pid_t kids[READERS];
	int fd, status;

	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGRTMIN);
	block_only(&mask);
	fd = sigfd(&mask, SIGFD_SHARE);
	CHECK(fd >= 0);
	assert_kernel_fd(fd);
	for (int i = 0; i < READERS; i++) {
		kids[i] = fork();
		CHECK(kids[i] >= 0);
		if (kids[i] == 0) {
			struct sigfd_siginfo r[4];
			ssize_t n = read(fd, r, sizeof r);
			_exit(n == 0 ? 4 : 3); /* never: nothing is sent before the kill */
		}
	}
	for (int i = 0; i < READERS; i++)
		WAIT_ASLEEP(kids[i]);
	for (int i = 0; i < READERS; i++) {
		CHECK(kill(kids[i], SIGKILL) == 0);
		CHECK(waitpid(kids[i], &status, 0) == kids[i]);
		CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	}

	/* A reader killed in the middle of a stream of reads. */
	pid_t reader = fork();
	CHECK(reader >= 0);
	if (reader == 0) {
		struct sigfd_siginfo r[16];
		for (;;)
			CHECK(read(fd, r, sizeof r) > 0);
	}
	/* Once the reader is dead the parent itself takes what is queued
	 * whenever the queue is full: the guest's RLIMIT_SIGPENDING is small. */
	int last = -1;
	for (int i = 0; i < 3000; i++) {
		while (sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = i }) != 0) {
			CHECK(errno == EAGAIN);
			if (i > 1500)
				drain_in_order(fd, &last);
		}
		if (i == 1500) {
			CHECK(kill(reader, SIGKILL) == 0);
			CHECK(waitpid(reader, &status, 0) == reader && WIFSIGNALED(status));
			CHECK(fcntl(fd, F_SETFL, O_NONBLOCK) == 0);
		}
	}

	/* Whatever it did not take is still ours, in order. */
	drain_in_order(fd, &last);
	CHECK(last == 2999);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(read_one(fd).ssi_signo == SIGUSR1);
	CHECK(close(fd) == 0);
	return 0;
}
