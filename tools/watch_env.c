/* SPDX-License-Identifier: MIT */
/* SIGFD_WATCH_OPTIONS="-g -k 10 --json": words split at blanks, no quoting,
 * taken as if written first on the command line. The command line comes
 * after them, so its own -o or -k wins and its -x and -r add to theirs.
 * "--" is refused: the variable never names a COMMAND. The variable is left
 * in COMMAND's environment, as every other variable is. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "watch_env.h"

static const char blanks[] = " \t\n";
/* Kept until exit, as argv is (and so reachable: no leak for LeakSanitizer
 * or valgrind). */
static char *words;
static char **out;

char **watch_env_argv(int *argc, char **argv, char *msg, size_t size)
{
	const char *env = getenv(WATCH_ENV);
	char *w, *save = NULL;
	size_t n = 0;
	int i;

	if (!env || !env[strspn(env, blanks)])
		return argv;
	words = strdup(env);
	out = malloc(sizeof *out * (strlen(env) / 2 + 2 + (size_t)*argc));
	if (!words || !out) {
		snprintf(msg, size, "%s: out of memory", WATCH_ENV);
		errno = ENOMEM;
		return NULL;
	}
	out[n++] = argv[0];
	for (w = strtok_r(words, blanks, &save); w; w = strtok_r(NULL, blanks, &save)) {
		if (strcmp(w, "--") == 0) {
			snprintf(msg, size, "%s may hold options only, not '--' or a COMMAND",
				 WATCH_ENV);
			errno = EINVAL;
			return NULL;
		}
		out[n++] = w;
	}
	/* Its value would be the command line's first word. */
	if (n > 1 && watch_word_wants_value(out[n - 1])) {
		snprintf(msg, size, "%s: its last word '%s' needs a value, there", WATCH_ENV,
			 out[n - 1]);
		errno = EINVAL;
		return NULL;
	}
	for (i = 1; i < *argc; i++)
		out[n++] = argv[i];
	out[n] = NULL;
	*argc = (int)n;
	return out;
}
