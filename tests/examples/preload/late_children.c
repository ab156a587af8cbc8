/* SPDX-License-Identifier: MIT */
/* Preloaded into an example by tests/examples/example_libuv_sigchld_reset.sh. It
 * makes one race happen every run: a child of the program's own exits while
 * SIGCHLD is blocked, and the program (libuv, closing its last process
 * handle) then sets SIGCHLD's action to SIG_DFL, so the kernel discards the
 * pending SIGCHLD (POSIX: a pending signal whose action becomes "ignore").
 * With SIGFD_TEST_LATE_CHILDREN=N, the program's first N children that
 * _exit() without exec wait in _exit(); the first sigaction() that sets
 * SIGCHLD to SIG_DFL or SIG_IGN lets them go, and waits until each is a
 * zombie (its SIGCHLD sent) before the call takes effect. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define LATE_MAX 64

static pid_t program_pid;
static int held_pipe[2] = { -1, -1 };    /* a held child writes its pid */
static int release_pipe[2] = { -1, -1 }; /* end of file lets them go */
static long late_children;

__attribute__((constructor)) static void late_children_init(void)
{
	const char *n = getenv("SIGFD_TEST_LATE_CHILDREN");

	program_pid = getpid();
	late_children = n ? strtol(n, NULL, 10) : 0;
	if (late_children > LATE_MAX)
		abort();
	/* Not for the programs it runs (the shells libuv spawns). */
	unsetenv("SIGFD_TEST_LATE_CHILDREN");
	if (late_children > 0 && (pipe2(held_pipe, O_CLOEXEC) != 0 || pipe2(release_pipe, O_CLOEXEC) != 0))
		abort();
}

static void retry_read(int fd, void *buf, size_t len)
{
	char *p = buf;
	while (len > 0) {
		ssize_t n = read(fd, p, len);
		if (n > 0) {
			p += n;
			len -= (size_t)n;
		} else if (n == 0 || errno != EINTR) {
			abort(); /* a held child died without its pid: not this test */
		}
	}
}

void _exit(int status)
{
	if (late_children > 0 && getpid() != program_pid && getppid() == program_pid) {
		pid_t self = getpid();
		char c;
		if (write(held_pipe[1], &self, sizeof self) != (ssize_t)sizeof self)
			abort();
		close(release_pipe[1]);
		while (read(release_pipe[0], &c, 1) < 0 && errno == EINTR)
			;
	}
	syscall(SYS_exit_group, status);
	for (;;)
		;
}

static void release_late_children(void)
{
	pid_t child[LATE_MAX];
	siginfo_t info;

	if (late_children == 0)
		return;
	for (long i = 0; i < late_children; i++)
		retry_read(held_pipe[0], &child[i], sizeof child[i]);
	close(release_pipe[1]);
	/* Exited but not reaped: each one's SIGCHLD is pending now. */
	for (long i = 0; i < late_children; i++)
		while (waitid(P_PID, (id_t)child[i], &info, WEXITED | WNOWAIT) != 0)
			if (errno != EINTR)
				abort();
	late_children = 0;
}

int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	static int (*next)(int, const struct sigaction *, struct sigaction *);

	if (!next)
		*(void **)&next = dlsym(RTLD_NEXT, "sigaction");
	if (sig == SIGCHLD && act && !(act->sa_flags & SA_SIGINFO) &&
	    (act->sa_handler == SIG_DFL || act->sa_handler == SIG_IGN) && getpid() == program_pid)
		release_late_children();
	return next(sig, act, old);
}
