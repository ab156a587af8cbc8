/* SPDX-License-Identifier: MIT */
/* sigfd-watch's messages on standard error: one line each, named. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "watch.h"

int say_system_status = EXIT_SYSTEM, say_quiet;

static void say(const char *fmt, va_list ap)
{
	fputs("sigfd-watch: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
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
