/* SPDX-License-Identifier: MIT */
/* Several share fds: disjoint masks route each signal to its own fd;
 * overlapping masks deliver each instance to exactly one of them. */
#include "share_util.h"

#define COUNT 200

static int drain(int fd, int *seen, int *last)
{
	struct sigfd_siginfo r;
	int n = 0;

	while (read(fd, &r, sizeof r) == (ssize_t)sizeof r) {
		CHECK(r.ssi_signo == (uint32_t)SIGRTMIN + 2);
		CHECK(r.ssi_int >= 0 && r.ssi_int < COUNT);
		CHECK(r.ssi_int > *last); /* in order within one fd */
		*last = r.ssi_int;
		seen[r.ssi_int]++;
		n++;
	}
	CHECK(errno == EAGAIN);
	return n;
}

int main(void)
{
	sigset_t all, usr1 = set_of(SIGUSR1), usr2 = set_of(SIGUSR2), rt = set_of(SIGRTMIN + 2);
	int seen[COUNT] = { 0 };
	int a, b, x, y, got = 0, last_x = -1, last_y = -1;

	sigemptyset(&all);
	sigaddset(&all, SIGUSR1);
	sigaddset(&all, SIGUSR2);
	sigaddset(&all, SIGRTMIN + 2);
	block_only(&all);
	a = sigfd(&usr1, SIGFD_SHARE);
	b = sigfd(&usr2, SIGFD_SHARE);
	CHECK(a >= 0 && b >= 0);
	CHECK(kill(getpid(), SIGUSR2) == 0);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(read_one(a).ssi_signo == SIGUSR1);
	CHECK(read_one(b).ssi_signo == SIGUSR2);

	x = sigfd(&rt, SIGFD_SHARE | SIGFD_NONBLOCK);
	y = sigfd(&rt, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(x >= 0 && y >= 0);
	for (int i = 0; i < COUNT; i++)
		CHECK(sigqueue(getpid(), SIGRTMIN + 2, (union sigval){ .sival_int = i }) == 0);
	struct pollfd p[2] = { { .fd = x, .events = POLLIN }, { .fd = y, .events = POLLIN } };
	while (got < COUNT) {
		CHECK(poll(p, 2, 5000) > 0);
		got += drain(x, seen, &last_x);
		got += drain(y, seen, &last_y);
	}
	for (int i = 0; i < COUNT; i++)
		CHECK(seen[i] == 1);
	CHECK(!pending_has(SIGRTMIN + 2));
	CHECK(close(a) == 0 && close(b) == 0 && close(x) == 0 && close(y) == 0);
	return 0;
}
