/* SPDX-License-Identifier: MIT */
/* What every test program shares: an assertion that names the failure, and
 * helpers for blocking signals, reading records and reaping children. */
#ifndef SIGFD_TEST_CHECK_H
#define SIGFD_TEST_CHECK_H

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sigfd.h"

/* Built with ThreadSanitizer: some tests cannot run under it. It aborts
 * ("dup thread with used id") when a child forked while a thread of its
 * parent ran starts a thread of its own, as glibc gives it the parent
 * thread's stack and id again; the share mode's thread runs across fork(). */
#if defined(__SANITIZE_THREAD__)
#define UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UNDER_TSAN 1
#endif
#endif
#ifndef UNDER_TSAN
#define UNDER_TSAN 0
#endif

/* Built with AddressSanitizer. Before LLVM 18 (so gcc 12's and clang 14's)
 * it takes none of its allocator's locks around fork(): a child forked while
 * another thread allocates can hang in its first malloc() or in the leak
 * check at exit(). There, children of a process whose threads allocate only
 * _exit(). */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

/* Run by valgrind (tests/run-all's VALGRIND=1): its preload is there. */
static inline int under_valgrind(void)
{
	const char *preload = getenv("LD_PRELOAD");
	return preload && strstr(preload, "vgpreload") != NULL;
}

/* The process whose exit is checked for leaks (see leak_check_start):
 * none once a check has failed. */
static pid_t leak_check_pid;

static inline _Noreturn void check_failed(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: check failed: %s (errno %d: %s)\n", file, line, what, errno,
		strerror(errno));
	leak_check_pid = 0;
	exit(1);
}

#define CHECK(cond)                                              \
	do {                                                     \
		if (!(cond))                                     \
			check_failed(__FILE__, __LINE__, #cond); \
	} while (0)

/* A contract test runs once in local mode and once in share mode: the
 * runner sets SIGFD_TEST_MODE=share for the second (tests/contract/: tier
 * host-share in tests/folders). */
static inline unsigned long test_mode(void)
{
	const char *mode = getenv("SIGFD_TEST_MODE");

	return mode && strcmp(mode, "share") == 0 ? SIGFD_SHARE : 0;
}

/* Every test leaves no descriptor open: the fds open when it started are
 * compared with those open when its main process exits. The library's own
 * (a share-mode thread's) may take a moment to go after the last close. */
#define LEAK_CHECK_FDS 1024
static unsigned char leak_check_open[LEAK_CHECK_FDS];

static inline int leak_check_differs(int report)
{
	int differs = 0;

	for (int fd = 0; fd < LEAK_CHECK_FDS; fd++) {
		/* Closing what it inherited is the test's business. */
		if (fcntl(fd, F_GETFD) >= 0 && !leak_check_open[fd]) {
			if (report)
				fprintf(stderr, "fd %d left open\n", fd);
			differs = 1;
		}
	}
	return differs;
}

static void leak_check_at_exit(void)
{
	int saved = errno;

	if (getpid() != leak_check_pid || getenv("SIGFD_TEST_NO_LEAK_CHECK"))
		return;
	for (int waited = 0; leak_check_differs(0) && waited < 2000; waited++)
		poll(NULL, 0, 5);
	if (leak_check_differs(1))
		_exit(1);
	errno = saved;
}

__attribute__((constructor)) static void leak_check_start(void)
{
	for (int fd = 0; fd < LEAK_CHECK_FDS; fd++)
		leak_check_open[fd] = fcntl(fd, F_GETFD) >= 0;
	leak_check_pid = getpid();
	atexit(leak_check_at_exit);
}

/* Wait for a condition, looking every 5 ms, for at most 10 s: the
 * condition is the synchronisation, the pause only spaces the looks. The
 * look that ends the wait is the verdict: another could see a state that
 * has since moved on (a sleeper woken to look again). */
#ifndef WAIT_UNTIL_LOOKS
#define WAIT_UNTIL_LOOKS 2000
#endif
#define WAIT_UNTIL(cond)                                                    \
	do {                                                                \
		int waited_ = 0, held_;                                     \
		while (!(held_ = !!(cond)) && waited_ < WAIT_UNTIL_LOOKS) { \
			poll(NULL, 0, 5);                                   \
			waited_++;                                          \
		}                                                           \
		if (!held_)                                                 \
			check_failed(__FILE__, __LINE__, #cond);            \
	} while (0)

static inline int none_pending(const sigset_t *mask)
{
	sigset_t p;

	CHECK(sigpending(&p) == 0);
	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(mask, sig) == 1 && sigismember(&p, sig) == 1)
			return 0;
	return 1;
}

/* The user-space share mode makes a record readable once its thread has
 * taken the signal, a hop after it was sent (sigfd(3), BUGS); a signalfd
 * and the kernel backend at once. Wait until the signals of mask (the fd's
 * mask) sent so far have been taken, then set the same mask: sigfd_setmask()
 * returns once every signal taken has been written. A test then sees what a
 * signalfd shows. */
static inline void settle(int fd, const sigset_t *mask)
{
	struct stat st;

	CHECK(fstat(fd, &st) == 0);
	if (S_ISSOCK(st.st_mode)) {
		WAIT_UNTIL(none_pending(mask));
		CHECK(sigfd_setmask(fd, mask) == 0);
	}
}

/* A test program exec'd as a helper of another test (a probe, a new image)
 * leaves its checking to that test. */
static inline void leak_check_off(void)
{
	leak_check_pid = 0;
}

/* One-letter state of a task (R, S, T, Z...) from /proc, '?' if gone. */
static inline char task_state(pid_t tid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return '?';
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

/* The line of /proc/self/fdinfo/FD starting with key, into line; 0 if none. */
static inline int fdinfo_find(int fd, const char *key, char *line, int size)
{
	char path[64];
	int found = 0;
	FILE *f;

	snprintf(path, sizeof path, "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	CHECK(f != NULL);
	while (!found && fgets(line, size, f))
		found = strncmp(line, key, strlen(key)) == 0;
	fclose(f);
	return found;
}

static inline int fdinfo_has(int fd, const char *key)
{
	char line[256];
	return fdinfo_find(fd, key, line, sizeof line);
}

/* The lowest free descriptor number: a leaked descriptor moves it. */
static inline int lowest_free_fd(void)
{
	int fd = dup(0);
	CHECK(fd >= 0);
	CHECK(close(fd) == 0);
	return fd;
}

/* Block exactly the given signals in this thread (and in children). */
static inline void block_only(const sigset_t *set)
{
	CHECK(sigprocmask(SIG_SETMASK, set, NULL) == 0);
}

static inline sigset_t set_of(int sig)
{
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, sig);
	return s;
}

/* Read exactly one record; fails the test on anything else. */
static inline struct sigfd_siginfo read_one(int fd)
{
	struct sigfd_siginfo r;
	ssize_t n = read(fd, &r, sizeof r);
	CHECK(n == (ssize_t)sizeof r);
	return r;
}

/* Wait for a child and fail unless it exited 0. */
static inline void reap_ok(pid_t pid)
{
	int status;
	CHECK(waitpid(pid, &status, 0) == pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "child %d failed: status 0x%x\n", (int)pid, status);
		exit(1);
	}
}

/* Readiness now (timeout 0) or within ms milliseconds: the revents poll()
 * reports for fd, 0 when nothing happened in time. */
static inline short poll_events(int fd, short events, int ms)
{
	struct pollfd p = { .fd = fd, .events = events };
	int n;
	while ((n = poll(&p, 1, ms)) < 0 && errno == EINTR)
		;
	CHECK(n >= 0);
	return n ? p.revents : 0;
}

static inline void close_pair(const int p[2])
{
	CHECK(close(p[0]) == 0);
	CHECK(close(p[1]) == 0);
}

/* One byte over a pipe: how processes in a test tell each other "go". */
static inline void put_byte(int fd)
{
	char c = 'x';
	ssize_t n;
	while ((n = write(fd, &c, 1)) < 0 && errno == EINTR)
		;
	CHECK(n == 1);
}

static inline void get_byte(int fd)
{
	char c;
	ssize_t n;
	while ((n = read(fd, &c, 1)) < 0 && errno == EINTR)
		;
	CHECK(n == 1);
}

/* The mask the kernel holds for a signalfd, from /proc/self/fdinfo: bit
 * (sig - 1) for each signal 1..64. */
static inline uint64_t fdinfo_sigmask(int fd)
{
	char path[64], line[256];
	unsigned long long mask = 0;
	int found = 0;
	snprintf(path, sizeof path, "/proc/self/fdinfo/%d", fd);
	FILE *f = fopen(path, "r");
	CHECK(f != NULL);
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "sigmask: %llx", &mask) == 1)
			found = 1;
	CHECK(fclose(f) == 0);
	CHECK(found);
	return mask;
}

static inline uint64_t sigbit(int sig)
{
	return UINT64_C(1) << (sig - 1);
}

/* A sigval carrying an int with every byte defined: sigqueue() copies the
 * whole union, and valgrind rightly flags the bytes an int leaves unset. */
static inline union sigval int_val(int i)
{
	union sigval v;
	memset(&v, 0, sizeof v);
	v.sival_int = i;
	return v;
}

#endif
