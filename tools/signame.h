/* SPDX-License-Identifier: MIT */
/* Signal names <-> numbers for the command-line tools: "USR1", "SIGusr1",
 * "RTMIN+3", "SIGRTMAX-1" and plain numbers in; "SIGUSR1", "SIGRTMIN+3" out. */
#ifndef SIGFD_TOOLS_SIGNAME_H
#define SIGFD_TOOLS_SIGNAME_H

/* Room for any name signame_of() writes, "SIGRTMAX-123" and "SIG12345" included. */
#define SIGNAME_MAX 24

/* The number of the signal spelled s (case does not matter, "SIG" is
 * optional), or 0 with *why set to a short reason such as "unknown signal". */
int signame_parse(const char *s, const char **why);

/* The canonical name of sig into buf, which is returned: the first name in
 * the table, RTMIN+n / RTMAX-n the way bash spells them, else "SIG<n>". */
const char *signame_of(int sig, char buf[SIGNAME_MAX]);

#endif
