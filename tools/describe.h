/* SPDX-License-Identifier: MIT */
/* Turning one sigfd record into a line of text or a JSON object, for
 * sigfd-watch. See docs/sigfd-watch.1 for both formats. */
#ifndef SIGFD_TOOLS_DESCRIBE_H
#define SIGFD_TOOLS_DESCRIBE_H

#include <stdio.h>
#include <time.h>

#include "sigfd.h"

/* What sent the record, in one word: "kill", "sigqueue", "child-exited"... */
const char *describe_origin(const struct sigfd_siginfo *r);

/* One line, newline included, for the record read at wall-clock time when.
 * Errors are left in out's error indicator. */
void describe_text(FILE *out, const struct sigfd_siginfo *r, const struct timespec *when);
void describe_json(FILE *out, const struct sigfd_siginfo *r, const struct timespec *when);

#endif
