/* SPDX-License-Identifier: MIT */
/* select() marks a sigfd readable while a signal in its mask is pending,
 * and not otherwise. */
#include <sys/select.h>

#include "check.h"

static int readable(int fd, long usec)
{
	fd_set r;
	struct timeval tv = { .tv_sec = usec / 1000000, .tv_usec = usec % 1000000 };
	int n;
	do {
		FD_ZERO(&r);
		FD_SET(fd, &r);
	} while ((n = select(fd + 1, &r, NULL, NULL, &tv)) < 0 && errno == EINTR);
	CHECK(n >= 0);
	CHECK(n == (FD_ISSET(fd, &r) ? 1 : 0));
	return n;
}

int main(void)
{
	sigset_t set = set_of(SIGUSR2);
	block_only(&set);
	int fd = sigfd(&set, test_mode());
	CHECK(fd >= 0);

	CHECK(readable(fd, 0) == 0);
	CHECK(kill(getpid(), SIGUSR2) == 0);
	settle(fd, &set);
	CHECK(readable(fd, 0) == 1);
	CHECK(read_one(fd).ssi_signo == SIGUSR2);
	CHECK(readable(fd, 0) == 0);

	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		CHECK(kill(getppid(), SIGUSR2) == 0);
		_exit(0);
	}
	CHECK(readable(fd, 30 * 1000000L) == 1);
	CHECK(read_one(fd).ssi_pid == (uint32_t)pid);
	CHECK(readable(fd, 0) == 0);
	reap_ok(pid);
	CHECK(close(fd) == 0);
	return 0;
}
