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

/* What the reader knows beyond the record. */
struct describe_extra {
	struct timespec when;         /* wall-clock time the record was read */
	unsigned long long read_tick; /* the same moment, in sender_tick_now()'s ticks */
	int passed_as;                /* -1: nothing to say; 0: dropped; else the signal
				       * it was passed on as (--rewrite) */
};

/* One line, newline included. Errors are left in out's error indicator. */
void describe_text(FILE *out, const struct sigfd_siginfo *r, const struct describe_extra *x);
void describe_json(FILE *out, const struct sigfd_siginfo *r, const struct describe_extra *x);

/* A name as a text VALUE (escaped) or a JSON string (quoted). */
void describe_string(FILE *out, const char *str, int json);

#endif
