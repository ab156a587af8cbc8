/* SPDX-License-Identifier: MIT */
/* SIGFD_WATCH_OPTIONS: sigfd-watch's options from the environment, for a
 * container image whose ENTRYPOINT fixes the command line (as tini reads
 * TINI_SUBREAPER and TINI_KILL_PROCESS_GROUP). See watch_env.c. */
#ifndef SIGFD_TOOLS_WATCH_ENV_H
#define SIGFD_TOOLS_WATCH_ENV_H

#include <stddef.h>

#define WATCH_ENV "SIGFD_WATCH_OPTIONS"

/* argv with the variable's words put first, after argv[0], and *argc
 * counted again; argv itself when the variable is unset or blank. NULL with
 * a message in msg when it cannot be used: errno ENOMEM when memory ran
 * out, EINVAL when its words are wrong. */
char **watch_env_argv(int *argc, char **argv, char *msg, size_t size);

#endif
