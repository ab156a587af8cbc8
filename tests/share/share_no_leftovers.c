/* SPDX-License-Identifier: MIT */
/* Share mode leaves the caller as it found it: its signal mask, every
 * disposition and errno are untouched; and once the last share fd is
 * closed, no thread of the library is left, and no fd but the user-space
 * backend's end of the door, which the next call into share mode closes
 * (as exit() does: the leak check at exit sees none). */
#include <pthread.h>

#include "share_util.h"

static void same_dispositions(const struct sigaction *before)
{
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction now;
		if (sig == SIGKILL || sig == SIGSTOP || sigaction(sig, NULL, &now) < 0)
			continue;
		CHECK(now.sa_handler == before[sig].sa_handler);
		CHECK(now.sa_flags == before[sig].sa_flags);
	}
}

int main(void)
{
	static struct sigaction before[NSIG];
	sigset_t mask = set_of(SIGUSR1), mask_before, mask_after;
	int fds = fd_count(), fd[3];

	for (int sig = 1; sig < NSIG; sig++)
		sigaction(sig, NULL, &before[sig]);
	block_only(&mask);
	CHECK(pthread_sigmask(SIG_SETMASK, NULL, &mask_before) == 0);
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < 3; i++) {
			errno = 1234;
			fd[i] = sigfd(&mask, SIGFD_SHARE);
			CHECK(fd[i] >= 0);
			CHECK(errno == 1234);
		}
		/* One thread serves them all; the kernel module needs none. */
		CHECK(forwarders() == (kernel_backend(fd[0]) ? 0 : 1));
		CHECK(kill(getpid(), SIGUSR1) == 0);
		struct pollfd p[3];
		for (int i = 0; i < 3; i++)
			p[i] = (struct pollfd){ .fd = fd[i], .events = POLLIN };
		/* Working: the signal makes an fd readable (user space routes it
		 * to one; in the kernel every fd whose mask holds it is). */
		CHECK(poll(p, 3, 5000) >= 1);
		CHECK(pthread_sigmask(SIG_SETMASK, NULL, &mask_after) == 0);
		for (int sig = 1; sig < NSIG; sig++)
			CHECK(sigismember(&mask_before, sig) == sigismember(&mask_after, sig));
		same_dispositions(before);
		int door = kernel_backend(fd[0]) ? 0 : 1;
		for (int i = 0; i < 3; i++)
			CHECK(close(fd[i]) == 0);
		WAIT_UNTIL(forwarders() == 0);
		WAIT_UNTIL(fd_count() == fds + door);
	}
	return 0;
}
