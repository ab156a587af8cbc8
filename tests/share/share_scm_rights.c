/* SPDX-License-Identifier: MIT */
/* SCM_RIGHTS listen-in: a process that never shared our memory receives a
 * share fd over a socket and reads 1,000 queued values sent to us by a
 * third process, each once and in order. */
#include "share_util.h"

#define COUNT 1000

int main(void)
{
	sigset_t mask = set_of(SIGRTMIN + 1);
	int link[2], go[2];
	pid_t creator = getpid(), receiver, sender;

	block_only(&mask);
	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, link) == 0);
	CHECK(pipe(go) == 0);
	/* Forked before the share fd exists: it can only get it by message. */
	receiver = fork();
	CHECK(receiver >= 0);
	if (receiver == 0) {
		int fd = recv_fd(link[1]);
		pid_t from;
		CHECK(read(go[0], &from, sizeof from) == (ssize_t)sizeof from);
		for (int i = 0; i < COUNT; i++) {
			struct sigfd_siginfo r = read_one(fd);
			CHECK(r.ssi_signo == (uint32_t)SIGRTMIN + 1);
			CHECK(r.ssi_code == SI_QUEUE);
			CHECK(r.ssi_pid == (uint32_t)from);
			CHECK(r.ssi_int == i);
		}
		_exit(0);
	}
	int fd = sigfd(&mask, SIGFD_SHARE | SIGFD_CLOEXEC);
	CHECK(fd >= 0);
	send_fd(link[0], fd);
	CHECK(close(fd) == 0); /* the receiver's copy keeps it alive */

	sender = fork();
	CHECK(sender >= 0);
	if (sender == 0) {
		for (int i = 0; i < COUNT; i++)
			CHECK(sigqueue(creator, SIGRTMIN + 1, (union sigval){ .sival_int = i }) == 0);
		_exit(0);
	}
	CHECK(write(go[1], &sender, sizeof sender) == (ssize_t)sizeof sender);
	reap_ok(sender);
	reap_ok(receiver);
	close_pair(link);
	close_pair(go);
	return 0;
}
