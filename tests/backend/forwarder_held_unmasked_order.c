/* SPDX-License-Identifier: MIT */
/* Real-time values the forwarding thread holds (their write refused for
 * room) keep their order when the share fd's mask drops their signal
 * before there is room. They were taken for that fd, like the records
 * already in it: they are written there once there is room, and the
 * values still queued in the kernel stay there. Given back to the kernel
 * instead, they went to the end of the queue, behind later values (the
 * soak's "value 150 after 433", a signal moved between two share fds).
 * sendmmsg() is wrapped (-Wl,--wrap, see tests.mk) to refuse the thread's
 * writes with EAGAIN. The user-space backend only (tests/folders). */
#include <poll.h>

#include "share_util.h"
#include "write_fails_once.h"

#define VALUES 100

static int read_all(int fd, struct sigfd_siginfo *r, int want)
{
	int got = 0;

	while (got < want) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, 10000) != 1)
			break;
		n = read(fd, r + got, (size_t)(want - got) * sizeof r[0]);
		CHECK(n > 0 && n % (ssize_t)sizeof r[0] == 0);
		got += (int)(n / (ssize_t)sizeof r[0]);
	}
	return got;
}

int main(void)
{
	sigset_t none, rt = set_of(SIGRTMIN);
	struct sigfd_siginfo r[VALUES + 1];
	int fd, first;
	ssize_t n;

	CHECK(setenv("SIGFD_BACKEND", "thread", 1) == 0);
	sigemptyset(&none);
	block_only(&rt);
	fd = sigfd(&none, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(fd >= 0);
	for (int i = 1; i <= VALUES; i++)
		CHECK(sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = i }) == 0);
	/* The thread takes a batch as the mask is set and holds it, refused;
	 * its catch-up for the second call finds the signal in no mask. */
	atomic_store(&fail_every_write, EAGAIN);
	CHECK(sigfd_setmask(fd, &rt) == 0);
	CHECK(sigfd_setmask(fd, &none) == 0);
	atomic_store(&fail_every_write, 0);

	/* The held batch reaches the fd it was taken for, mask or not, in
	 * one write; nothing else does. */
	if (poll(&(struct pollfd){ .fd = fd, .events = POLLIN }, 1, 10000) != 1) {
		fprintf(stderr, "the held records never reached the share fd\n");
		return 1;
	}
	n = read(fd, r, VALUES * sizeof r[0]);
	CHECK(n > 0 && n % (ssize_t)sizeof r[0] == 0);
	first = (int)(n / (ssize_t)sizeof r[0]);
	CHECK(read(fd, r + first, sizeof r[0]) == -1 && errno == EAGAIN);
	CHECK(sigfd_setmask(fd, &rt) == 0);
	CHECK(read_all(fd, r + first, VALUES - first) == VALUES - first);
	CHECK(read(fd, r + VALUES, sizeof r[0]) == -1 && errno == EAGAIN);
	CHECK(close(fd) == 0);
	for (int i = 0; i < VALUES; i++)
		if (r[i].ssi_signo != (uint32_t)SIGRTMIN || r[i].ssi_int != i + 1) {
			fprintf(stderr, "record %d: signal %u, value %d; expected value %d\n", i,
				r[i].ssi_signo, r[i].ssi_int, i + 1);
			return 1;
		}
	return 0;
}
