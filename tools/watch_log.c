/* SPDX-License-Identifier: MIT */
/* The log of records: standard output without a COMMAND, standard error
 * with one (COMMAND's standard output stays its own), a file with -o,
 * nothing with -q. Each record is formatted in memory and goes out in one
 * write() of one line: COMMAND often writes to the same descriptor, and a
 * record written piece by piece came out torn between its writes. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "describe.h"
#include "watch.h"

void log_open(struct watch_log *log, const struct watch_args *a)
{
	int fd;

	log->json = a->json;
	log->broken = 0;
	if (a->quiet)
		log->out = NULL;
	else if (!a->output)
		log->out = a->command ? stderr : stdout;
	else if (!strcmp(a->output, "-"))
		log->out = stdout;
	else {
		/* Appended, as logs are; close-on-exec, so COMMAND has no copy. */
		fd = open(a->output, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY, 0666);
		if (fd < 0 || !(log->out = fdopen(fd, "a")))
			die(say_system_status, "cannot open log '%s': %s", a->output,
			    strerror(errno));
	}
}

char *log_format(const struct watch_log *log, const struct sigfd_siginfo *rec,
		 unsigned long long read_tick, int passed_as, size_t *len)
{
	struct describe_extra x = {.read_tick = read_tick, .passed_as = passed_as};
	char *line = NULL;
	FILE *mem;

	clock_gettime(CLOCK_REALTIME, &x.when);
	if (!(mem = open_memstream(&line, len)))
		return NULL;
	if (log->json)
		describe_json(mem, rec, &x);
	else
		describe_text(mem, rec, &x);
	if (fclose(mem) != 0) {
		free(line);
		return NULL;
	}
	return line;
}

int log_write(struct watch_log *log, char *line, size_t len)
{
	int rc = 0;

	/* Nothing of ours is buffered in log->out: its descriptor directly. */
	if (line && log->out && !log->broken)
		rc = write_whole(fileno(log->out), line, len);
	free(line);
	return rc;
}

int log_record(struct watch_log *log, const struct sigfd_siginfo *rec,
	       unsigned long long read_tick, int passed_as)
{
	char *line;
	size_t len;

	if (!log->out || log->broken)
		return 0;
	if (!(line = log_format(log, rec, read_tick, passed_as, &len)))
		return -1;
	return log_write(log, line, len);
}

void log_lost(struct watch_log *log)
{
	/* COMMAND keeps running: it must not lose its signals or its reaper
	 * because our log is gone. */
	if (!log->broken)
		warn("writing output: %s; still passing signals on", strerror(errno));
	log->broken = 1;
}
