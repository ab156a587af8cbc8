/* SPDX-License-Identifier: MIT */
/* For the tests that wrap syscall() (-Wl,--wrap=syscall, tests.mk): its
 * arguments after the number, as longs, which is how x86_64 and the other
 * ABIs Linux runs on pass them. Five: x86_64 passes that many in registers
 * after the number, and the library's calls take at most four. A sixth
 * would be read from the caller's frame, past what it passed, which
 * clang's AddressSanitizer reports as a stack-buffer-underflow. */
#ifndef SIGFD_TESTS_SYSCALL_ARGS_H
#define SIGFD_TESTS_SYSCALL_ARGS_H

#include <stdarg.h>

#define SYSCALL_NARGS 5

/* In long __wrap_syscall(long number, ...): the arguments into
 * a[SYSCALL_NARGS]. */
#define SYSCALL_ARGS(a, number)                           \
	do {                                              \
		va_list ap_;                              \
		va_start(ap_, number);                    \
		for (int i_ = 0; i_ < SYSCALL_NARGS; i_++) \
			(a)[i_] = va_arg(ap_, long);      \
		va_end(ap_);                              \
	} while (0)

/* The call itself, with the arguments SYSCALL_ARGS took. */
#define REAL_SYSCALL(number, a) __real_syscall(number, (a)[0], (a)[1], (a)[2], (a)[3], (a)[4])

long __real_syscall(long number, ...);

#endif
