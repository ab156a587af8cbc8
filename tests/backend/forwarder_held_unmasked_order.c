/* SPDX-License-Identifier: MIT */
/* Real-time values the forwarding thread holds (their write refused for
 * room) keep their order when the share fd's mask drops their signal
 * before there is room. They were taken for that fd, like the records
 * already in it: they are written there once there is room, and the
 * values still queued in the kernel stay there. Given back to the kernel
 * instead, they went to the end of the queue, behind later values (the
 * soak's "value 150 after 433", a signal moved between two share fds).
 * The thread's writes are refused with EAGAIN while the mask is set and
 * dropped (refused_write.h). The user-space backend only (tests/folders). */
#include "refused_write.h"

int main(void)
{
	sigset_t none, rt = set_of(SIGRTMIN);
	struct sigfd_siginfo r[VALUES + 1];
	int fd = share_fd_with_values(), first;
	ssize_t n;

	sigemptyset(&none);
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
	read_records(fd, r + first, VALUES - first);
	CHECK(read(fd, r + VALUES, sizeof r[0]) == -1 && errno == EAGAIN);
	CHECK(close(fd) == 0);
	return values_in_order(r, VALUES);
}
