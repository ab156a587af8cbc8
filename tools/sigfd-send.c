/* SPDX-License-Identifier: MIT */
/* sigfd-send: send a signal with kill(2), or with sigqueue(3) and a value,
 * taking the forms kill(1) users type (-9, -KILL, -s NAME, signal 0). The
 * companion of sigfd-watch: no standard command on a fresh system is sure
 * to queue a value (procps kill -q is not always there). See sigfd-send(1). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "args.h"

int main(int argc, char **argv)
{
	struct send_args a;
	char msg[512];
	int status = 0;

	if (send_parse(argc, argv, &a, msg, sizeof msg) < 0) {
		fprintf(stderr, "sigfd-send: %s\n", msg);
		return 2;
	}
	if (a.action != ARGS_RUN) {
		if (a.action == ARGS_HELP)
			fputs(send_usage, stdout);
		else
			printf("sigfd-send (sigfd) %s\n", tools_version);
		/* ferror(): a write that failed before the flush (musl) */
		if (fflush(stdout) == 0 && !ferror(stdout))
			return 0;
		fprintf(stderr, "sigfd-send: standard output: %s\n", strerror(errno));
		return 1;
	}
	for (int i = 0; i < a.npids; i++) {
		pid_t pid = a.pids[i];
		int rc = a.queue ? sigqueue(pid, a.sig, a.value) : kill(pid, a.sig);
		if (rc < 0) {
			fprintf(stderr, "sigfd-send: %s %ld: %s\n", a.queue ? "sigqueue" : "kill",
				(long)pid, strerror(errno));
			status = 1;
		}
	}
	return status;
}
