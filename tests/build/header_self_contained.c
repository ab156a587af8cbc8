/* SPDX-License-Identifier: MIT */
/* sigfd.h must compile on its own: it is included first here, before any
 * system header, and everything it declares is used before anything else is
 * included. */
#include "sigfd.h"

/* Only names from sigfd.h (and what it promises to bring: <signal.h>,
 * <stdint.h>) are used up to check.h. */
static int (*const open_fn)(const sigset_t *, unsigned long) = sigfd;
static int (*const setmask_fn)(int, const sigset_t *) = sigfd_setmask;
static const unsigned long all_flags = SIGFD_NONBLOCK | SIGFD_CLOEXEC | SIGFD_SHARE;
_Static_assert(sizeof(struct sigfd_siginfo) == 128, "record is 128 bytes");
_Static_assert((SIGFD_NONBLOCK & SIGFD_CLOEXEC) == 0 && (SIGFD_NONBLOCK & SIGFD_SHARE) == 0 &&
		       (SIGFD_CLOEXEC & SIGFD_SHARE) == 0,
	       "flags are distinct bits");
static uint64_t use_stdint;

#include "check.h"

int main(void)
{
	sigset_t set = set_of(SIGUSR1);
	block_only(&set);
	int fd = open_fn(&set, SIGFD_CLOEXEC);
	CHECK(fd >= 0);
	CHECK(setmask_fn(fd, &set) == 0);
	CHECK(all_flags == 0x7);
	CHECK(use_stdint == 0);
	CHECK(close(fd) == 0);
	return 0;
}
