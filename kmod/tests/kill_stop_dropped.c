/* SPDX-License-Identifier: MIT */
/* SIGKILL and SIGSTOP never enter a mask, whether asked through the
 * library or the raw ioctl; a creator holding such a descriptor still
 * stops on SIGSTOP and dies on SIGKILL, and the reader sees neither. */
#include <pthread.h>

#include "kmod_util.h"

#define KILLSTOP (bit(SIGKILL) | bit(SIGSTOP))

int main(void)
{
	sigset_t all;
	int fd, link[2], status;
	pid_t creator;

	sigfillset(&all);
	fd = sigfd(&all, SIGFD_SHARE);
	CHECK(fd >= 0);
	assert_kernel_fd(fd);
	CHECK((fdinfo_mask(fd) & KILLSTOP) == 0);
	CHECK((fdinfo_mask(fd) & bit(SIGUSR1)) != 0);
	CHECK(sigfd_setmask(fd, &all) == 0);
	CHECK((fdinfo_mask(fd) & KILLSTOP) == 0);
	CHECK(close(fd) == 0);

	fd = raw_create(~(uint64_t)0, 0);
	CHECK(fd >= 0);
	CHECK(fdinfo_mask(fd) == (~(uint64_t)0 & ~KILLSTOP));
	CHECK(close(fd) == 0);

	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, link) == 0);
	creator = fork();
	CHECK(creator >= 0);
	if (creator == 0) {
		sigset_t block;
		sigfillset(&block);
		block_only(&block);
		send_fd(link[1], raw_create(~(uint64_t)0, 0));
		for (;;)
			pause();
	}
	fd = recv_fd(link[0]);
	CHECK(fcntl(fd, F_SETFL, O_NONBLOCK) == 0);
	CHECK(kill(creator, SIGSTOP) == 0);
	CHECK(waitpid(creator, &status, WUNTRACED) == creator && WIFSTOPPED(status));
	struct sigfd_siginfo r;
	CHECK(read(fd, &r, sizeof r) == -1 && errno == EAGAIN);
	CHECK(kill(creator, SIGCONT) == 0);
	CHECK(waitpid(creator, &status, WCONTINUED) == creator && WIFCONTINUED(status));
	/* SIGCONT is in the mask and blocked: it continued the creator and
	 * is pending as a signal the reader may take. */
	r = read_one(fd);
	CHECK(r.ssi_signo == SIGCONT);
	CHECK(kill(creator, SIGKILL) == 0);
	CHECK(waitpid(creator, &status, 0) == creator && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	CHECK(read(fd, &r, sizeof r) == 0);
	CHECK(close(fd) == 0);
	close_pair(link);
	return 0;
}
