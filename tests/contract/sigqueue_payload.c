/* SPDX-License-Identifier: MIT */
/* sigqueue()'s value arrives in the record: ssi_code is SI_QUEUE, ssi_int
 * carries sival_int, ssi_ptr carries sival_ptr, and ssi_pid/ssi_uid name
 * the sender (ourselves, then a child). */
#include <stdint.h>

#include "check.h"

int main(void)
{
	sigset_t set = set_of(SIGUSR2);
	sigaddset(&set, SIGRTMIN + 1);
	block_only(&set);
	int fd = sigfd(&set, test_mode());
	CHECK(fd >= 0);
	union sigval v;
	struct sigfd_siginfo r;

	CHECK(sigqueue(getpid(), SIGUSR2, int_val(-123456)) == 0);
	r = read_one(fd);
	CHECK(r.ssi_signo == SIGUSR2);
	CHECK(r.ssi_code == SI_QUEUE);
	CHECK(r.ssi_int == -123456);
	CHECK(r.ssi_errno == 0);
	CHECK(r.ssi_pid == (uint32_t)getpid());
	CHECK(r.ssi_uid == (uint32_t)getuid());

	static int target;
	v.sival_ptr = &target;
	CHECK(sigqueue(getpid(), SIGRTMIN + 1, v) == 0);
	r = read_one(fd);
	CHECK(r.ssi_signo == (uint32_t)(SIGRTMIN + 1));
	CHECK(r.ssi_code == SI_QUEUE);
	CHECK(r.ssi_ptr == (uint64_t)(uintptr_t)&target);

	/* From another process: its pid, and the value it chose. */
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		CHECK(sigqueue(getppid(), SIGRTMIN + 1, int_val(0x5eed)) == 0);
		_exit(0);
	}
	r = read_one(fd);
	CHECK(r.ssi_signo == (uint32_t)(SIGRTMIN + 1));
	CHECK(r.ssi_code == SI_QUEUE);
	CHECK(r.ssi_int == 0x5eed);
	CHECK(r.ssi_pid == (uint32_t)pid);
	CHECK(r.ssi_uid == (uint32_t)getuid());
	reap_ok(pid);

	/* kill() is SI_USER, not SI_QUEUE. */
	CHECK(kill(getpid(), SIGUSR2) == 0);
	r = read_one(fd);
	CHECK(r.ssi_signo == SIGUSR2 && r.ssi_code == SI_USER);
	CHECK(close(fd) == 0);
	return 0;
}
