/* SPDX-License-Identifier: MIT */
/* 100,000 RT signals with values from a sender process to the creator,
 * read by a third process through the creator's descriptor: none lost,
 * none duplicated, all in order. The kernel queue (RLIMIT_SIGPENDING) is
 * the only buffer; the sender retries when it is full. A debug kernel
 * under TCG takes minutes for 100,000: SIGFD_FLOOD_COUNT sends fewer. */
#include "kmod_util.h"

int main(void)
{
	const char *count = getenv("SIGFD_FLOOD_COUNT");
	const int total = count ? atoi(count) : 100000;
	sigset_t mask = set_of(SIGRTMIN);
	pid_t creator = getpid(), reader, sender;
	int fd;

	CHECK(total > 0);
	block_only(&mask);
	fd = sigfd(&mask, SIGFD_SHARE);
	CHECK(fd >= 0);
	assert_kernel_fd(fd);
	reader = fork();
	CHECK(reader >= 0);
	if (reader == 0) {
		struct sigfd_siginfo r[64];
		int next = 0;
		while (next < total) {
			ssize_t n = read(fd, r, sizeof r);
			CHECK(n > 0 && n % 128 == 0);
			for (ssize_t i = 0; i < n / 128; i++) {
				if (r[i].ssi_int != next || r[i].ssi_signo != (uint32_t)SIGRTMIN) {
					fprintf(stderr, "record %d: signal %u value %d\n", next,
						r[i].ssi_signo, r[i].ssi_int);
					_exit(1);
				}
				next++;
			}
		}
		_exit(0);
	}
	sender = fork();
	CHECK(sender >= 0);
	if (sender == 0) {
		for (int i = 0; i < total; i++)
			while (sigqueue(creator, SIGRTMIN, (union sigval){ .sival_int = i }) != 0) {
				CHECK(errno == EAGAIN);
				sched_yield();
			}
		_exit(0);
	}
	reap_ok(sender);
	reap_ok(reader);
	CHECK(!pending_has(SIGRTMIN));
	CHECK(close(fd) == 0);
	return 0;
}
