/* SPDX-License-Identifier: MIT */
/* The signal mask and the ignored signals the process had when the library
 * was loaded: for a program linked with it, what it inherited at execve(),
 * before it blocked anything for a sigfd. Kept by a constructor, since by
 * the first sigfd() call the caller has already changed its mask. Written
 * once before main() (or by dlopen()), read-only after. */
#include <errno.h>
#include <signal.h>
#include <stddef.h>

#include "taken.h"

static uint64_t start_blocked, start_ignored;

__attribute__((constructor)) static void remember_start(void)
{
	int saved = errno;
	sigset_t mask;

	if (sigprocmask(SIG_BLOCK, NULL, &mask) == 0)
		for (int sig = 1; sig < NSIG; sig++)
			if (sigismember(&mask, sig) == 1)
				start_blocked |= SIGFD_BIT(sig);
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction sa;
		/* The C library's reserved signals fail here: they are never taken. */
		if (sigaction(sig, NULL, &sa) == 0 && !(sa.sa_flags & SA_SIGINFO) &&
		    sa.sa_handler == SIG_IGN)
			start_ignored |= SIGFD_BIT(sig);
	}
	errno = saved;
}

uint64_t sigfd_start_blocked(void)
{
	return start_blocked;
}

uint64_t sigfd_start_ignored(void)
{
	return start_ignored;
}
