/* SPDX-License-Identifier: MIT */
/* Which signals the program keeps for itself (share_usual.c): the
 * forwarding thread gives those back to the kernel, which delivers them the
 * usual way. */
#ifndef SIGFD_SHARE_USUAL_H
#define SIGFD_SHARE_USUAL_H

#include "share_ctx.h"

/* In a forwarding thread just started, in a table of its own: nothing of
 * a previous thread's look is open here; its files go from base up. 0, or
 * -1 and errno when the threads cannot be looked at (no /proc): then the
 * program's signals could not be told from the share fds'. */
int share_usual_start(int base);
/* Of the signals in bits, those that a live thread other than the caller
 * leaves unblocked, as the threads' masks are now.
 * Allocation-free: the forwarding thread asks, under the share lock. */
sigbits share_meant_for_program(sigbits bits);

#endif
