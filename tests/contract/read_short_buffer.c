/* SPDX-License-Identifier: MIT */
/* A read() buffer smaller than one record (128 bytes) fails with EINVAL and
 * takes nothing: the signal is still pending and the next proper read gets
 * it. (A buffer that is not a multiple of 128: read_odd_buffer.) */
#include "check.h"

int main(void)
{
	sigset_t set = set_of(SIGUSR1);
	block_only(&set);
	int fd = sigfd(&set, SIGFD_NONBLOCK | test_mode());
	CHECK(fd >= 0);
	char buf[sizeof(struct sigfd_siginfo)];

	CHECK(kill(getpid(), SIGUSR1) == 0);
	static const size_t short_sizes[] = { 0, 1, 64, 127 };
	for (size_t i = 0; i < sizeof short_sizes / sizeof short_sizes[0]; i++) {
		errno = 0;
		CHECK(read(fd, buf, short_sizes[i]) == -1);
		CHECK(errno == EINVAL);
	}
	/* Nothing lost: still pending, still readable. */
	sigset_t pending;
	CHECK(sigpending(&pending) == 0);
	CHECK(sigismember(&pending, SIGUSR1) == 1);
	CHECK(poll_events(fd, POLLIN, 0) == POLLIN);
	CHECK(read(fd, buf, 128) == 128);
	struct sigfd_siginfo r;
	memcpy(&r, buf, sizeof r);
	CHECK(r.ssi_signo == SIGUSR1);
	CHECK(r.ssi_pid == (uint32_t)getpid());

	CHECK(close(fd) == 0);
	return 0;
}
