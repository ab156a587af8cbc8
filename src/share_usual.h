/* SPDX-License-Identifier: MIT */
/* Which signals the program means for itself (share_usual.c): the
 * forwarding thread leaves those to the kernel, which delivers them the
 * usual way. */
#ifndef SIGFD_SHARE_USUAL_H
#define SIGFD_SHARE_USUAL_H

#include "share_ctx.h"

/* Of the signals in bits, those that the program would act on (a handler,
 * SIG_IGN, or a default action that stops or ignores) and that a live
 * thread other than the caller leaves unblocked. Without /proc, or out of
 * descriptors, none. Allocation-free: the forwarding thread asks. */
sigbits share_meant_for_program(sigbits bits);
/* The program may have changed a disposition: look again (the dispositions
 * seen are otherwise reused for a tick of the coarse clock). Under the share
 * lock. */
void share_usual_forget(void);

#endif
