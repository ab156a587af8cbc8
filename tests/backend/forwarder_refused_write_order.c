/* SPDX-License-Identifier: MIT */
/* Real-time values keep their order when a write of the forwarding thread
 * is refused (EAGAIN: the share fd's socket fuller than the thread
 * counted). The records of the refused write must come before the values
 * still queued in the kernel; put back at the end of the process's queue,
 * they came after them. sendmmsg() is wrapped (-Wl,--wrap, see tests.mk)
 * so that the thread's first write fails with EAGAIN. The user-space
 * backend only: tests/backend/ is the host's alone (tests/folders). */
#include <poll.h>

#include "share_util.h"
#include "write_fails_once.h"

#define VALUES 100

int main(void)
{
	sigset_t none, rt = set_of(SIGRTMIN);
	struct sigfd_siginfo r[VALUES + 1];
	int fd, got = 0;

	CHECK(setenv("SIGFD_BACKEND", "thread", 1) == 0);
	sigemptyset(&none);
	block_only(&rt);
	fd = sigfd(&none, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(fd >= 0);
	/* Queued before the fd takes them: the first batch is refused. */
	for (int i = 1; i <= VALUES; i++)
		CHECK(sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = i }) == 0);
	atomic_store(&fail_next_write, EAGAIN);
	CHECK(sigfd_setmask(fd, &rt) == 0);

	while (got < VALUES) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		CHECK(poll(&p, 1, 10000) == 1);
		n = read(fd, r + got, (VALUES - got) * sizeof r[0]);
		CHECK(n > 0 && n % (ssize_t)sizeof r[0] == 0);
		got += (int)(n / (ssize_t)sizeof r[0]);
	}
	CHECK(!atomic_load(&fail_next_write));
	CHECK(read(fd, r + got, sizeof r[0]) == -1 && errno == EAGAIN);
	CHECK(close(fd) == 0);
	for (int i = 0; i < VALUES; i++)
		if (r[i].ssi_signo != (uint32_t)SIGRTMIN || r[i].ssi_int != i + 1) {
			fprintf(stderr, "record %d: signal %u, value %d; expected value %d\n", i,
				r[i].ssi_signo, r[i].ssi_int, i + 1);
			return 1;
		}
	return 0;
}
