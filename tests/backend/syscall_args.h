/* SPDX-License-Identifier: MIT */
/* For the tests that wrap syscall() (-Wl,--wrap=syscall, tests.mk): its
 * arguments after the number, as longs, which is how x86_64 and the other
 * ABIs Linux runs on pass them; six of them forward any call. */
#ifndef SIGFD_TESTS_SYSCALL_ARGS_H
#define SIGFD_TESTS_SYSCALL_ARGS_H

#include <stdarg.h>

/* In long __wrap_syscall(long number, ...): the arguments into a[6]. */
#define SYSCALL_ARGS(a, number)                       \
	do {                                          \
		va_list ap_;                          \
		va_start(ap_, number);                \
		for (int i_ = 0; i_ < 6; i_++)        \
			(a)[i_] = va_arg(ap_, long);  \
		va_end(ap_);                          \
	} while (0)

long __real_syscall(long number, ...);

#endif
