/* SPDX-License-Identifier: MIT */
/* What the helpers that give children their signals back need to know:
 * the signals this process has given to a sigfd (taken.c, noted by sigfd.c)
 * and the state each signal had when the process started (start.c). Masks
 * are kept as one bit per signal, bit (sig - 1), so they can be read in a
 * forked child without a lock. */
#ifndef SIGFD_TAKEN_H
#define SIGFD_TAKEN_H

#include <signal.h>
#include <stdint.h>

_Static_assert(NSIG <= 65, "signal masks are kept in 64 bits");
#define SIGFD_BIT(sig) ((uint64_t)1 << ((sig) - 1))

/* Add the signals of set to those ever given to a sigfd. Thread-safe. */
void sigfd_note_taken(const sigset_t *set);
/* The signals ever given to a sigfd. Async-signal-safe. */
uint64_t sigfd_taken(void);

/* The signals blocked, and those ignored, when the library was loaded. */
uint64_t sigfd_start_blocked(void);
uint64_t sigfd_start_ignored(void);

/* SIGFD_DEBUG=1: warn on stderr when a thread leaves a signal of set
 * unblocked (check.c). errno is kept. */
void sigfd_debug_check(int fd, const sigset_t *set);

#endif
