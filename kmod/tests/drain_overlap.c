/* SPDX-License-Identifier: MIT */
/* Overlapping masks at exit: each pending signal goes to exactly one
 * descriptor, the oldest whose mask has it. The creator has {USR1, USR2},
 * then {USR2, RTMIN}, then {USR1}; pending at its exit: USR1, USR2 and
 * three RTMIN. The first gets USR1 and USR2, the second the three RTMIN,
 * the third nothing: each reads end of file after its own. */
#include "kmod_util.h"

static void expect_eof_after(int fd, const int *sigs, int n)
{
	struct sigfd_siginfo r;

	for (int i = 0; i < n; i++) {
		r = read_one(fd);
		CHECK(r.ssi_signo == (uint32_t)sigs[i]);
	}
	CHECK(read(fd, &r, sizeof r) == 0);
	CHECK(close(fd) == 0);
}

int main(void)
{
	sigset_t mask;
	int fds_before = fd_count(), link[2], go[2], fd[3];
	pid_t creator;

	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGUSR2);
	sigaddset(&mask, SIGRTMIN);
	block_only(&mask);
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, link) == 0);
	CHECK(pipe(go) == 0);
	creator = fork();
	CHECK(creator >= 0);
	if (creator == 0) {
		uint64_t masks[3] = { bit(SIGUSR1) | bit(SIGUSR2), bit(SIGUSR2) | bit(SIGRTMIN),
				      bit(SIGUSR1) };
		for (int i = 0; i < 3; i++) {
			int f = raw_create(masks[i], 0);
			CHECK(f >= 0);
			send_fd(link[1], f);
		}
		get_byte(go[0]);
		_exit(0);
	}
	for (int i = 0; i < 3; i++)
		fd[i] = recv_fd(link[0]);
	CHECK(kill(creator, SIGUSR2) == 0 && kill(creator, SIGUSR1) == 0);
	for (int i = 0; i < 3; i++)
		CHECK(sigqueue(creator, SIGRTMIN, int_val(i)) == 0);
	CHECK(queued_bytes(fd[0]) == 2 * 128 && queued_bytes(fd[2]) == 128);
	put_byte(go[1]);
	reap_ok(creator);
	CHECK(queued_bytes(fd[0]) == 2 * 128 && queued_bytes(fd[1]) == 3 * 128);
	CHECK(queued_bytes(fd[2]) == 0);
	expect_eof_after(fd[2], NULL, 0);
	expect_eof_after(fd[1], (int[]){ SIGRTMIN, SIGRTMIN, SIGRTMIN }, 3);
	expect_eof_after(fd[0], (int[]){ SIGUSR1, SIGUSR2 }, 2);
	CHECK(close(go[0]) == 0 && close(go[1]) == 0);
	CHECK(close(link[0]) == 0 && close(link[1]) == 0);
	CHECK(fd_count() == fds_before);
	return 0;
}
