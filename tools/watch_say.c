/* SPDX-License-Identifier: MIT */
/* sigfd-watch's messages on standard error: one line each, named, in one
 * write() (COMMAND shares the descriptor). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "watch.h"

int say_system_status = EXIT_SYSTEM, say_quiet;

int write_whole(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static void say(const char *fmt, va_list ap)
{
	char line[1024];
	int len = snprintf(line, sizeof line, "sigfd-watch: ");

	len += vsnprintf(line + len, sizeof line - (size_t)len, fmt, ap);
	if (len > (int)sizeof line - 2)
		len = (int)sizeof line - 2; /* cut, still one line */
	line[len++] = '\n';
	(void)write_whole(2, line, (size_t)len);
}

_Noreturn void die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
	exit(status);
}

void warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
}

void note(const char *fmt, ...)
{
	va_list ap;

	if (say_quiet)
		return;
	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
}
