/* SPDX-License-Identifier: MIT */
/* A read() buffer that is not a multiple of one record (128 bytes) gets
 * whole records only: with two queued and 255 bytes, one record, and the
 * second whole in the next read. */
#include "check.h"

int main(void)
{
	sigset_t set = set_of(SIGRTMIN);
	block_only(&set);
	int fd = sigfd(&set, SIGFD_NONBLOCK | test_mode());
	CHECK(fd >= 0);
	char buf[3 * sizeof(struct sigfd_siginfo)];
	struct sigfd_siginfo r;

	for (int i = 1; i <= 2; i++)
		CHECK(sigqueue(getpid(), SIGRTMIN, int_val(i)) == 0);
	settle(fd, &set);
	CHECK(read(fd, buf, 255) == 128);
	memcpy(&r, buf, sizeof r);
	CHECK(r.ssi_signo == (uint32_t)SIGRTMIN && r.ssi_int == 1);
	CHECK(read(fd, buf, sizeof buf) == 128);
	memcpy(&r, buf, sizeof r);
	CHECK(r.ssi_signo == (uint32_t)SIGRTMIN && r.ssi_int == 2);
	errno = 0;
	CHECK(read(fd, buf, sizeof buf) == -1 && errno == EAGAIN);
	CHECK(close(fd) == 0);
	return 0;
}
