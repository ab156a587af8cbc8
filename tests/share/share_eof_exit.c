/* SPDX-License-Identifier: MIT */
/* End of file when the creator exits: the signals sent before the exit are
 * read first (the user-space backend's thread writes what is pending at
 * exit(), the kernel backend hands the pending signals to the fd), then
 * read() returns 0 and poll() says POLLHUP within a second of the exit. */
#include "share_util.h"

#define COUNT 10

int main(void)
{
	sigset_t mask = set_of(SIGRTMIN);
	int link[2], go[2];
	pid_t creator;

	block_only(&mask);
	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, link) == 0);
	CHECK(pipe(go) == 0);
	creator = fork();
	CHECK(creator >= 0);
	if (creator == 0) {
		int fd = sigfd(&mask, SIGFD_SHARE);
		char c;
		CHECK(fd >= 0);
		send_fd(link[1], fd);
		CHECK(read(go[0], &c, 1) == 1);
		for (int i = 0; i < COUNT; i++)
			CHECK(sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = i }) == 0);
		/* Exit once all of them are in the fd: then they were sent
		 * before the exit, and must be read before end of file. */
		WAIT_UNTIL(queued_bytes(fd) == COUNT * 128);
		exit(0);
	}
	int fd = recv_fd(link[0]);
	int before_exit = COUNT;
	CHECK(write(go[1], "g", 1) == 1);
	reap_ok(creator);

	struct pollfd p = { .fd = fd, .events = POLLIN };
	for (int i = 0; i < before_exit; i++) {
		CHECK(poll(&p, 1, 1000) == 1);
		struct sigfd_siginfo r = read_one(fd);
		CHECK(r.ssi_int == i);
	}
	CHECK(poll(&p, 1, 1000) == 1);
	CHECK(p.revents & POLLHUP); /* the kernel backend adds POLLIN, as in 2003 */
	struct sigfd_siginfo r;
	CHECK(read(fd, &r, sizeof r) == 0);
	CHECK(read(fd, &r, sizeof r) == 0); /* and it stays at end of file */
	CHECK(close(fd) == 0);
	close_pair(link);
	close_pair(go);
	return 0;
}
