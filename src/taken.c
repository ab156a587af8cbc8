/* SPDX-License-Identifier: MIT */
/* The signals this process has given to a sigfd, ever: the set the
 * spawn helpers give back to children. It only grows, so it needs no lock
 * and can be read in a forked child. */
#include <stdatomic.h>

#include "taken.h"

static _Atomic uint64_t taken;

void sigfd_note_taken(const sigset_t *set)
{
	uint64_t bits = 0;

	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(set, sig) == 1)
			bits |= SIGFD_BIT(sig);
	atomic_fetch_or(&taken, bits);
}

uint64_t sigfd_taken(void)
{
	return atomic_load(&taken);
}
