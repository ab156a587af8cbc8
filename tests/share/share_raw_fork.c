/* SPDX-License-Identifier: MIT */
/* A child made without fork handlers (_Fork, the raw fork system call)
 * knows by its pid that the share state it inherited is its parent's: its
 * sigfd_setmask() on the parent's share fd fails with EPERM and changes
 * nothing, its own share fd works, and its exit() returns (there is no
 * forwarding thread to wait for in it). Once the child has entered the
 * share mode it no longer holds the parent's writers: the parent's exit gives
 * the reader end of file while the child lives. */
#include <sys/socket.h>
#include <sys/syscall.h>

#include "share_util.h"

static pid_t raw_fork(int how)
{
	return how == 0 ? _Fork() : (pid_t)syscall(SYS_fork);
}

static void child_of_creator(int fd, const sigset_t *both)
{
	sigset_t usr2 = set_of(SIGUSR2);

	errno = 0;
	CHECK(sigfd_setmask(fd, &usr2) == -1 && errno == EPERM);
	int own = sigfd(both, SIGFD_SHARE);
	CHECK(own >= 0);
	CHECK(kill(getpid(), SIGUSR2) == 0);
	CHECK(read_one(own).ssi_signo == SIGUSR2);
	exit(0);
}

/* A creator whose raw-forked child outlives it: the reader still sees end
 * of file when the creator exits. The creator lets go of our share fd
 * (theirs), which its child would otherwise keep open after we exit. */
static void creator_outlived(int how, const sigset_t *both, int ours)
{
	int link[2], hold[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, link) == 0);
	CHECK(pipe(hold) == 0);
	pid_t creator = fork();
	CHECK(creator >= 0);
	if (creator == 0) {
		sigset_t usr1 = set_of(SIGUSR1);
		CHECK(close(ours) == 0);
		int fd = sigfd(&usr1, SIGFD_SHARE);
		CHECK(fd >= 0);
		send_fd(link[0], fd);
		pid_t k = raw_fork(how);
		CHECK(k >= 0);
		if (k == 0) {
			int mine = sigfd(both, SIGFD_SHARE); /* the writers go */
			CHECK(mine >= 0);
			CHECK(close(mine) == 0);
			put_byte(link[0]);
			get_byte(hold[0]); /* lives until the reader saw end of file */
			_exit(0);
		}
		get_byte(link[0]);
		exit(0); /* k is reaped by init */
	}
	int fd = recv_fd(link[1]);
	put_byte(link[1]);
	reap_ok(creator);
	struct sigfd_siginfo r;
	CHECK(poll_events(fd, POLLIN, 10000) & POLLHUP);
	CHECK(read(fd, &r, sizeof r) == 0);
	put_byte(hold[1]);
	CHECK(close(fd) == 0);
	close_pair(link);
	close_pair(hold);
}

int main(void)
{
	if (UNDER_TSAN) {
		puts("SKIPPED: ThreadSanitizer cannot follow a fork that bypasses its interceptor (_Fork, syscall(SYS_fork))");
		return 77;
	}
	sigset_t both = set_of(SIGUSR1), usr1 = set_of(SIGUSR1);
	sigaddset(&both, SIGUSR2);
	block_only(&both);
	int fd = sigfd(&usr1, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(fd >= 0);

	for (int how = 0; how < 2; how++) {
		pid_t child = raw_fork(how);
		CHECK(child >= 0);
		if (child == 0)
			child_of_creator(fd, &both);
		reap_ok(child);
		/* Still ours, with its mask: SIGUSR1 comes, SIGUSR2 does not. */
		CHECK(kill(getpid(), SIGUSR2) == 0);
		CHECK(kill(getpid(), SIGUSR1) == 0);
		CHECK(poll_events(fd, POLLIN, 5000) == POLLIN);
		CHECK(read_one(fd).ssi_signo == SIGUSR1);
		CHECK(pending_has(SIGUSR2));
		sigset_t usr2 = set_of(SIGUSR2);
		CHECK(sigwaitinfo(&usr2, NULL) == SIGUSR2);
		creator_outlived(how, &both, fd);
	}
	CHECK(close(fd) == 0);
	return 0;
}
