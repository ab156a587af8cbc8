/* SPDX-License-Identifier: MIT */
/* A signal nobody reads stays pending in the creator, visible to
 * sigpending(); read() takes it, with its origin; closing the descriptor
 * leaves later signals pending. */
#include "kmod_util.h"

int main(void)
{
	sigset_t mask = set_of(SIGUSR1);
	struct sigfd_siginfo r;
	siginfo_t si;
	int fd;

	block_only(&mask);
	fd = sigfd(&mask, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(fd >= 0);
	assert_kernel_fd(fd);
	CHECK(read(fd, &r, sizeof r) == -1 && errno == EAGAIN);

	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(pending_has(SIGUSR1)); /* nothing was taken behind our back */
	CHECK(queued_bytes(fd) == 128);
	struct pollfd p = { .fd = fd, .events = POLLIN };
	CHECK(poll(&p, 1, 0) == 1 && p.revents == POLLIN);
	CHECK(pending_has(SIGUSR1)); /* poll does not take it either */

	r = read_one(fd);
	CHECK(r.ssi_signo == SIGUSR1 && r.ssi_code == SI_USER);
	CHECK(r.ssi_pid == (uint32_t)getpid() && r.ssi_uid == (uint32_t)getuid());
	CHECK(!pending_has(SIGUSR1));
	CHECK(queued_bytes(fd) == 0);
	CHECK(poll(&p, 1, 0) == 0);
	CHECK(read(fd, &r, sizeof r) == -1 && errno == EAGAIN);

	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(close(fd) == 0);
	CHECK(pending_has(SIGUSR1));
	CHECK(sigwaitinfo(&mask, &si) == SIGUSR1 && si.si_pid == getpid());
	return 0;
}
