/* SPDX-License-Identifier: MIT */
/* A full mask is accepted: sigfd(sigfillset) succeeds, and the mask the
 * kernel holds (/proc/self/fdinfo) has every catchable signal but never
 * SIGKILL or SIGSTOP, which no descriptor can take. */
#include "check.h"

int main(void)
{
	sigset_t all;
	CHECK(sigfillset(&all) == 0);
	block_only(&all);
	int fd = sigfd(&all, 0);
	CHECK(fd >= 0);
	uint64_t m = fdinfo_sigmask(fd);
	CHECK((m & sigbit(SIGKILL)) == 0);
	CHECK((m & sigbit(SIGSTOP)) == 0);
	static const int some[] = { SIGHUP, SIGINT, SIGTERM, SIGUSR1, SIGUSR2, SIGCHLD, SIGCONT, SIGTSTP };
	for (size_t i = 0; i < sizeof some / sizeof some[0]; i++)
		CHECK(m & sigbit(some[i]));
	CHECK(m & sigbit(SIGRTMIN));
	CHECK(m & sigbit(SIGRTMAX));

	/* It reports a signal as usual. */
	CHECK(kill(getpid(), SIGHUP) == 0);
	CHECK(read_one(fd).ssi_signo == SIGHUP);

	/* Only SIGKILL and SIGSTOP: accepted too, an fd that reports nothing. */
	sigset_t ks;
	sigemptyset(&ks);
	sigaddset(&ks, SIGKILL);
	sigaddset(&ks, SIGSTOP);
	int fd2 = sigfd(&ks, SIGFD_NONBLOCK);
	CHECK(fd2 >= 0);
	CHECK(fdinfo_sigmask(fd2) == 0);

	/* sigfd_setmask drops them as well. */
	CHECK(sigfd_setmask(fd2, &all) == 0);
	CHECK(fdinfo_sigmask(fd2) == m);
	CHECK(close(fd2) == 0);
	CHECK(close(fd) == 0);
	return 0;
}
