/* SPDX-License-Identifier: MIT */
/* Real-time values keep their order when a write of the forwarding thread
 * is refused (EAGAIN: the share fd's socket fuller than the thread
 * counted). The records of the refused write must come before the values
 * still queued in the kernel; put back at the end of the process's queue,
 * they came after them. The thread's first write fails with EAGAIN
 * (refused_write.h). The user-space backend only: tests/backend/ is the
 * host's alone (tests/folders). */
#include "refused_write.h"

int main(void)
{
	sigset_t rt = set_of(SIGRTMIN);
	struct sigfd_siginfo r[VALUES + 1];
	int fd = share_fd_with_values();

	/* Queued before the fd takes them: the first batch is refused. */
	atomic_store(&fail_next_write, EAGAIN);
	CHECK(sigfd_setmask(fd, &rt) == 0);
	read_records(fd, r, VALUES);
	CHECK(!atomic_load(&fail_next_write));
	CHECK(read(fd, r + VALUES, sizeof r[0]) == -1 && errno == EAGAIN);
	CHECK(close(fd) == 0);
	return values_in_order(r, VALUES);
}
