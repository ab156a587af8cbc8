/* SPDX-License-Identifier: MIT */
/* A stopped creator can only die by SIGKILL; it then drains like any
 * other: the signals sent to it while it was stopped are read from the
 * descriptor, in order, then end of file. */
#include "kmod_util.h"

#define COUNT 10

int main(void)
{
	sigset_t mask;
	int fds_before = fd_count(), link[2], fd, status;
	struct sigfd_siginfo r;
	pid_t creator;

	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGRTMIN);
	block_only(&mask);
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, link) == 0);
	creator = fork();
	CHECK(creator >= 0);
	if (creator == 0) {
		int f = raw_create(bit(SIGUSR1) | bit(SIGRTMIN), 0);
		CHECK(f >= 0);
		send_fd(link[1], f);
		for (;;)
			pause();
	}
	fd = recv_fd(link[0]);
	CHECK(kill(creator, SIGSTOP) == 0);
	CHECK(waitpid(creator, &status, WUNTRACED) == creator && WIFSTOPPED(status));
	for (int i = 0; i < COUNT; i++)
		CHECK(sigqueue(creator, SIGRTMIN, int_val(i)) == 0);
	CHECK(kill(creator, SIGUSR1) == 0);
	CHECK(queued_bytes(fd) == (COUNT + 1) * 128);
	CHECK(kill(creator, SIGKILL) == 0);
	CHECK(waitpid(creator, &status, 0) == creator);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

	CHECK(read_one(fd).ssi_signo == SIGUSR1);
	for (int i = 0; i < COUNT; i++) {
		r = read_one(fd);
		CHECK(r.ssi_signo == (uint32_t)SIGRTMIN && r.ssi_int == i);
	}
	CHECK(read(fd, &r, sizeof r) == 0);
	CHECK(close(fd) == 0 && close(link[0]) == 0 && close(link[1]) == 0);
	CHECK(fd_count() == fds_before);
	return 0;
}
