/* SPDX-License-Identifier: MIT */
/* sigfd_unblocked_threads() names a thread that leaves a signal of the mask
 * unblocked and not the threads that block it, and stops naming it once it
 * blocks; SIGFD_DEBUG=1 makes sigfd() and sigfd_setmask() say so in one
 * line on stderr, and say nothing when all is well. Bad arguments: EINVAL.
 * Threads the test did not start (a sanitizer's) are not looked at. */
#include <pthread.h>
#include <sys/syscall.h>

#include "check.h"

static int go[2], done[2];
static pid_t bad_tid;

static void *careless(void *arg)
{
	sigset_t none;
	(void)arg;
	sigemptyset(&none);
	CHECK(pthread_sigmask(SIG_SETMASK, &none, NULL) == 0);
	bad_tid = (pid_t)syscall(SYS_gettid);
	put_byte(done[1]);
	get_byte(go[0]); /* block now */
	sigset_t usr1 = set_of(SIGUSR1);
	CHECK(pthread_sigmask(SIG_BLOCK, &usr1, NULL) == 0);
	put_byte(done[1]);
	get_byte(go[0]); /* end */
	return NULL;
}

static int has(const pid_t *tids, int n, pid_t tid)
{
	for (int i = 0; i < n; i++)
		if (tids[i] == tid)
			return 1;
	return 0;
}

/* What sigfd() (and sigfd_setmask()) write on stderr with SIGFD_DEBUG=1. */
static void debug_line(const sigset_t *set, char *line, size_t size, int *fd)
{
	int p[2], saved = dup(2);
	CHECK(saved >= 0 && pipe(p) == 0);
	CHECK(dup2(p[1], 2) == 2 && close(p[1]) == 0);
	CHECK(setenv("SIGFD_DEBUG", "1", 1) == 0);
	errno = 4321;
	*fd = sigfd(set, SIGFD_CLOEXEC);
	CHECK(*fd >= 0 && errno == 4321);
	CHECK(sigfd_setmask(*fd, set) == 0 && errno == 4321);
	CHECK(unsetenv("SIGFD_DEBUG") == 0);
	CHECK(dup2(saved, 2) == 2 && close(saved) == 0);
	ssize_t n = read(p[0], line, size - 1);
	CHECK(n >= 0);
	line[n] = '\0';
	CHECK(close(p[0]) == 0);
}

int main(void)
{
	sigset_t set = set_of(SIGUSR1);
	pid_t me = (pid_t)syscall(SYS_gettid), tids[64];
	char line[1024], want[64];
	pthread_t t;
	int n, fd, before = lowest_free_fd();

	block_only(&set);
	CHECK(pipe(go) == 0 && pipe(done) == 0);
	CHECK(pthread_create(&t, NULL, careless, NULL) == 0);
	get_byte(done[0]);

	errno = 4321;
	n = sigfd_unblocked_threads(&set, tids, 64);
	CHECK(n >= 1 && n <= 64 && errno == 4321);
	CHECK(has(tids, n, bad_tid));
	CHECK(!has(tids, n, me));
	/* The count is exact even with no room for ids. */
	CHECK(sigfd_unblocked_threads(&set, NULL, 0) == n);

	/* Two lines, sigfd() then sigfd_setmask(), each naming the thread. */
	debug_line(&set, line, sizeof line, &fd);
	snprintf(want, sizeof want, " %d", (int)bad_tid);
	CHECK(strncmp(line, "sigfd: warning: fd ", 19) == 0);
	CHECK(strstr(line, want) != NULL);
	char *second = strchr(line, '\n');
	CHECK(second && strncmp(second + 1, "sigfd: warning: fd ", 19) == 0);
	CHECK(strchr(second + 1, '\n') && strchr(second + 1, '\n')[1] == '\0');
	CHECK(close(fd) == 0);

	put_byte(go[1]);
	get_byte(done[0]);
	n = sigfd_unblocked_threads(&set, tids, 64);
	CHECK(n >= 0 && !has(tids, n, bad_tid) && !has(tids, n, me));
	if (n == 0) { /* no foreign threads: nothing is printed */
		debug_line(&set, line, sizeof line, &fd);
		CHECK(line[0] == '\0');
		CHECK(close(fd) == 0);
	}
	put_byte(go[1]);
	CHECK(pthread_join(t, NULL) == 0);

	errno = 0;
	CHECK(sigfd_unblocked_threads(NULL, tids, 1) == -1 && errno == EINVAL);
	errno = 0;
	CHECK(sigfd_unblocked_threads(&set, NULL, 1) == -1 && errno == EINVAL);
	CHECK(close(go[0]) == 0 && close(go[1]) == 0 && close(done[0]) == 0 && close(done[1]) == 0);
	CHECK(lowest_free_fd() == before);
	return 0;
}
