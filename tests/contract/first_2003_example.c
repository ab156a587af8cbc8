/* SPDX-License-Identifier: MIT */
/* The 2003 example program, made into a test: block every signal, take them
 * all through sigfd(&all, 0), kill ourselves with SIGUSR1, read one record. */
#include "check.h"

int main(void)
{
	sigset_t all;
	struct sigfd_siginfo rec;
	int fd;

	sigfillset(&all);
	block_only(&all);
	fd = sigfd(&all, test_mode());
	CHECK(fd >= 0);
	CHECK(kill(getpid(), SIGUSR1) == 0);

	char buffer[1024];
	ssize_t len = read(fd, buffer, sizeof buffer);
	CHECK(len == 128);
	memcpy(&rec, buffer, sizeof rec);
	CHECK(rec.ssi_signo == SIGUSR1);
	CHECK(rec.ssi_code == SI_USER);
	CHECK(rec.ssi_pid == (uint32_t)getpid());
	CHECK(rec.ssi_uid == (uint32_t)getuid());
	CHECK(close(fd) == 0);
	return 0;
}
