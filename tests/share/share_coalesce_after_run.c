/* SPDX-License-Identifier: MIT */
/* Coalescing stays exact when real-time records share socket buffers:
 * - a standard signal's record read while real-time records taken in the
 *   same batch are still unread: the next instance is a record of its own;
 * - (user-space backend) a standard signal's record unread behind a run of
 *   real-time records that is partly read: the next instance coalesces.
 * The kernel module dequeues at read(), lowest signal first, so there the
 * second case reads the standard signal first and its next instance is a
 * record of its own; that is checked instead. */
#include <fcntl.h>

#include "share_util.h"

int main(void)
{
	sigset_t none, both = set_of(SIGUSR1);
	struct sigfd_siginfo r[8];
	int fd, kernel, usr1_records = 0, next_value = 1;
	ssize_t n;

	sigaddset(&both, SIGRTMIN);
	sigemptyset(&none);
	block_only(&both);
	/* Signals are queued while the mask is empty, then taken at once. */
	fd = sigfd(&none, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(fd >= 0);
	kernel = kernel_backend(fd);

	/* One batch: SIGUSR1 first (the lowest signal), then the RT run. */
	CHECK(kill(getpid(), SIGUSR1) == 0);
	for (int i = 1; i <= 3; i++)
		CHECK(sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = i }) == 0);
	CHECK(sigfd_setmask(fd, &both) == 0);
	if (!kernel)
		WAIT_UNTIL(!pending_has(SIGRTMIN) && !pending_has(SIGUSR1));
	CHECK(read_one(fd).ssi_signo == SIGUSR1);
	CHECK(kill(getpid(), SIGUSR1) == 0); /* read: must not coalesce */
	/* Taken (no longer pending) is not yet sent: wait for the record. */
	if (!kernel)
		WAIT_UNTIL(queued_bytes(fd) == 4 * (int)sizeof r[0]);
	n = read(fd, r, sizeof r);
	CHECK(n == 4 * (ssize_t)sizeof r[0]);
	for (int k = 0; k < 4; k++) {
		if (r[k].ssi_signo == SIGUSR1) {
			usr1_records++;
			continue;
		}
		CHECK(r[k].ssi_signo == (uint32_t)SIGRTMIN && r[k].ssi_int == next_value);
		next_value++;
	}
	CHECK(usr1_records == 1 && next_value == 4);
	CHECK(sigfd_setmask(fd, &none) == 0);
	usr1_records = 0;
	next_value = 1;
	/* Queued before the fd takes them, so one read takes all three. */
	for (int i = 1; i <= 3; i++)
		CHECK(sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = i }) == 0);
	CHECK(sigfd_setmask(fd, &both) == 0);
	if (!kernel)
		WAIT_UNTIL(!pending_has(SIGRTMIN));
	CHECK(kill(getpid(), SIGUSR1) == 0);
	if (!kernel)
		WAIT_UNTIL(queued_bytes(fd) == 4 * (int)sizeof r[0]);

	r[0] = read_one(fd);
	if (kernel) {
		CHECK(r[0].ssi_signo == SIGUSR1);
		usr1_records++;
	} else {
		CHECK(r[0].ssi_signo == (uint32_t)SIGRTMIN && r[0].ssi_int == 1);
		next_value = 2;
	}
	/* Its record unread (user space): this instance must coalesce. */
	CHECK(kill(getpid(), SIGUSR1) == 0);
	if (!kernel)
		WAIT_UNTIL(!pending_has(SIGUSR1));

	n = read(fd, r, sizeof r);
	CHECK(n > 0 && n % (ssize_t)sizeof r[0] == 0);
	for (ssize_t k = 0; k < n / (ssize_t)sizeof r[0]; k++) {
		if (r[k].ssi_signo == SIGUSR1) {
			usr1_records++;
			continue;
		}
		CHECK(r[k].ssi_signo == (uint32_t)SIGRTMIN && r[k].ssi_int == next_value);
		next_value++;
	}
	CHECK(next_value == 4);
	CHECK(usr1_records == (kernel ? 2 : 1));
	CHECK(read(fd, r, sizeof r) == -1 && errno == EAGAIN);
	CHECK(!pending_has(SIGUSR1) && !pending_has(SIGRTMIN));
	CHECK(close(fd) == 0);
	return 0;
}
