/* SPDX-License-Identifier: MIT */
/* sigfd: POSIX signals delivered through a file descriptor.
 * See sigfd(3). */
#ifndef SIGFD_H
#define SIGFD_H

#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <sys/types.h>

/* The library's version, as in its soname and sigfd.pc: the VERSION file's,
 * written here by tools/set-version.sh (tests/build/version.sh checks). */
#define SIGFD_VERSION_MAJOR 0
#define SIGFD_VERSION_MINOR 1
#define SIGFD_VERSION_PATCH 0

#ifdef __cplusplus
extern "C" {
#endif

/* Flags for sigfd(). Our own values, not O_*, so the header means the same
 * on every system. */
#define SIGFD_NONBLOCK 0x1UL /* the new fd is O_NONBLOCK */
#define SIGFD_CLOEXEC  0x2UL /* the new fd is FD_CLOEXEC */
#define SIGFD_SHARE    0x4UL /* bound to the creating process (2003 semantics) */

/* One record per signal, read() from a sigfd. The layout is that of Linux's
 * struct signalfd_siginfo, on every system and architecture. */
struct sigfd_siginfo {
	uint32_t ssi_signo;     /* signal number */
	int32_t  ssi_errno;     /* error number (unused on Linux) */
	int32_t  ssi_code;      /* SI_USER, SI_QUEUE, CLD_EXITED, ... */
	uint32_t ssi_pid;       /* sender's pid */
	uint32_t ssi_uid;       /* sender's real uid */
	int32_t  ssi_fd;        /* fd (SIGIO) */
	uint32_t ssi_tid;       /* kernel timer id (POSIX timers) */
	uint32_t ssi_band;      /* band event (SIGIO) */
	uint32_t ssi_overrun;   /* timer overrun count */
	uint32_t ssi_trapno;    /* trap number */
	int32_t  ssi_status;    /* exit status or signal (SIGCHLD) */
	int32_t  ssi_int;       /* integer sent by sigqueue() */
	uint64_t ssi_ptr;       /* pointer sent by sigqueue() */
	uint64_t ssi_utime;     /* user CPU time consumed (SIGCHLD) */
	uint64_t ssi_stime;     /* system CPU time consumed (SIGCHLD) */
	uint64_t ssi_addr;      /* faulting address */
	uint16_t ssi_addr_lsb;  /* least significant bit of address */
	uint16_t __pad2;
	int32_t  ssi_syscall;   /* system call number (SIGSYS) */
	uint64_t ssi_call_addr; /* system call address (SIGSYS) */
	uint32_t ssi_arch;      /* system call architecture (SIGSYS) */
	uint8_t  __pad[28];
};

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(sizeof(struct sigfd_siginfo) == 128, "sigfd_siginfo must be 128 bytes");
#elif defined(__cplusplus) && __cplusplus >= 201103L
static_assert(sizeof(struct sigfd_siginfo) == 128, "sigfd_siginfo must be 128 bytes");
#endif

/* A new descriptor reporting the signals in mask: the fd, or -1 and errno. */
int sigfd(const sigset_t *mask, unsigned long flags);

/* Replace the mask of a sigfd: 0, or -1 and errno. */
int sigfd_setmask(int fd, const sigset_t *mask);

/* Children: give every signal this process has put in a sigfd the mask bit
 * and action (ignored or default) it had when the process started. In an
 * initialised attr for posix_spawn(), or in a forked child before execve()
 * (async-signal-safe). 0, or -1 and errno. */
int sigfd_spawnattr(posix_spawnattr_t *attr);
int sigfd_restore_signals(void);

/* How many threads of this process leave a signal of mask unblocked (and so
 * take it instead of a sigfd); the first ntids of their ids go in tids.
 * -1 and errno on failure. */
int sigfd_unblocked_threads(const sigset_t *mask, pid_t *tids, size_t ntids);

#ifdef __cplusplus
}
#endif
#endif
