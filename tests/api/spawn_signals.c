/* SPDX-License-Identifier: MIT */
/* Children get back the signals sigfd took. This program starts itself
 * ("parent") with a known state: SIGHUP and SIGINT ignored, SIGUSR2 blocked.
 * The parent then blocks SIGUSR1, SIGUSR2, SIGHUP, SIGINT, SIGTERM and
 * SIGCHLD for a sigfd, gives SIGHUP back its default action (as sigfd-watch
 * does, so that a blocked signal it was started ignoring is reported),
 * catches SIGTERM, and blocks SIGQUIT for a reason of its own. Children it
 * starts ("report") print their mask and ignored signals:
 *  - posix_spawn() with sigfd_spawnattr(): SIGUSR2 and SIGQUIT blocked,
 *    SIGINT ignored; SIGHUP default (posix_spawn cannot make a signal
 *    ignored, as documented);
 *  - the same over an attr holding a mask of the caller's: that mask is
 *    the base;
 *  - fork(), sigfd_restore_signals(), execve(): as above, SIGHUP ignored.
 * Also: EINVAL for a NULL attr; no descriptor leaked. */
#include <spawn.h>

#include "check.h"

extern char **environ;

static uint64_t bits_of(const sigset_t *s)
{
	uint64_t b = 0;
	for (int sig = 1; sig < 65 && sig < NSIG; sig++)
		if (sigismember(s, sig) == 1)
			b |= sigbit(sig);
	return b;
}

static int report(void)
{
	sigset_t mask;
	uint64_t ignored = 0;
	CHECK(sigprocmask(SIG_BLOCK, NULL, &mask) == 0);
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction sa;
		if (sigaction(sig, NULL, &sa) == 0 && !(sa.sa_flags & SA_SIGINFO) &&
		    sa.sa_handler == SIG_IGN)
			ignored |= sigbit(sig);
	}
	printf("%016llx %016llx\n", (unsigned long long)bits_of(&mask),
	       (unsigned long long)ignored);
	return fflush(stdout) == 0 ? 0 : 1;
}

/* The report of the child that writes to the read end p, then reaped. */
static void read_report(int p, pid_t pid, uint64_t *blocked, uint64_t *ignored)
{
	char buf[64] = "";
	unsigned long long b, i;
	FILE *f = fdopen(p, "r");
	CHECK(f != NULL);
	CHECK(fgets(buf, sizeof buf, f) != NULL);
	CHECK(fclose(f) == 0);
	CHECK(sscanf(buf, "%llx %llx", &b, &i) == 2);
	*blocked = b;
	*ignored = i;
	reap_ok(pid);
}

static const int watched[] = {SIGUSR1, SIGUSR2, SIGHUP, SIGINT, SIGTERM, SIGCHLD, SIGQUIT, SIGALRM};

/* Among the signals this test looks at, exactly these are set. */
static void expect(const char *what, uint64_t got, uint64_t want)
{
	uint64_t look = 0;
	for (size_t k = 0; k < sizeof watched / sizeof watched[0]; k++)
		look |= sigbit(watched[k]);
	if ((got & look) != want) {
		fprintf(stderr, "%s: got %016llx, want %016llx (of %016llx)\n", what,
			(unsigned long long)(got & look), (unsigned long long)want,
			(unsigned long long)look);
		exit(1);
	}
}

static void on_term(int sig)
{
	(void)sig;
}

static pid_t spawn_report(const char *self, posix_spawnattr_t *attr, int *rd)
{
	posix_spawn_file_actions_t fa;
	char *args[] = {(char *)self, "report", NULL};
	int p[2];
	pid_t pid;

	CHECK(pipe(p) == 0);
	CHECK(posix_spawn_file_actions_init(&fa) == 0);
	CHECK(posix_spawn_file_actions_adddup2(&fa, p[1], 1) == 0);
	CHECK(posix_spawn_file_actions_addclose(&fa, p[0]) == 0);
	CHECK(posix_spawn(&pid, self, &fa, attr, args, environ) == 0);
	CHECK(posix_spawn_file_actions_destroy(&fa) == 0);
	CHECK(close(p[1]) == 0);
	*rd = p[0];
	return pid;
}

static int parent(const char *self)
{
	sigset_t set, quit = set_of(SIGQUIT);
	posix_spawnattr_t attr;
	uint64_t blocked, ignored;
	int before = lowest_free_fd(), rd;
	pid_t pid;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGCHLD);
	CHECK(sigprocmask(SIG_BLOCK, &set, NULL) == 0);
	CHECK(sigprocmask(SIG_BLOCK, &quit, NULL) == 0);
	CHECK(signal(SIGHUP, SIG_DFL) != SIG_ERR);
	CHECK(signal(SIGTERM, on_term) != SIG_ERR);
	int fd = sigfd(&set, SIGFD_CLOEXEC);
	CHECK(fd >= 0);

	errno = 0;
	CHECK(sigfd_spawnattr(NULL) == -1 && errno == EINVAL);

	/* posix_spawn */
	CHECK(posix_spawnattr_init(&attr) == 0);
	errno = 1234;
	CHECK(sigfd_spawnattr(&attr) == 0);
	CHECK(errno == 1234);
	pid = spawn_report(self, &attr, &rd);
	read_report(rd, pid, &blocked, &ignored);
	expect("spawn: blocked", blocked, sigbit(SIGUSR2) | sigbit(SIGQUIT));
	expect("spawn: ignored", ignored, sigbit(SIGINT));
	CHECK(posix_spawnattr_destroy(&attr) == 0);

	/* The caller's own mask in attr is the base. */
	sigset_t own = set_of(SIGALRM);
	sigaddset(&own, SIGUSR1);
	CHECK(posix_spawnattr_init(&attr) == 0);
	CHECK(posix_spawnattr_setsigmask(&attr, &own) == 0);
	CHECK(posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK) == 0);
	CHECK(sigfd_spawnattr(&attr) == 0);
	pid = spawn_report(self, &attr, &rd);
	read_report(rd, pid, &blocked, &ignored);
	expect("spawn over own mask: blocked", blocked, sigbit(SIGALRM) | sigbit(SIGUSR2));
	CHECK(posix_spawnattr_destroy(&attr) == 0);

	/* fork, then exec */
	int p[2];
	CHECK(pipe(p) == 0);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		errno = 1234;
		if (sigfd_restore_signals() != 0 || errno != 1234 || dup2(p[1], 1) != 1)
			_exit(126);
		execl(self, self, "report", (char *)NULL);
		_exit(127);
	}
	CHECK(close(p[1]) == 0);
	read_report(p[0], pid, &blocked, &ignored);
	expect("fork: blocked", blocked, sigbit(SIGUSR2) | sigbit(SIGQUIT));
	expect("fork: ignored", ignored, sigbit(SIGINT) | sigbit(SIGHUP));

	/* The parent itself is untouched. */
	sigset_t now;
	CHECK(sigprocmask(SIG_BLOCK, NULL, &now) == 0);
	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(&set, sig) == 1)
			CHECK(sigismember(&now, sig) == 1);
	CHECK(close(fd) == 0);
	CHECK(lowest_free_fd() == before);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "report") == 0)
		return report();
	if (argc == 2 && strcmp(argv[1], "parent") == 0)
		return parent(argv[0]);
	/* The state the parent starts with. */
	sigset_t usr2 = set_of(SIGUSR2);
	CHECK(sigprocmask(SIG_SETMASK, &usr2, NULL) == 0);
	for (size_t k = 0; k < sizeof watched / sizeof watched[0]; k++)
		CHECK(signal(watched[k], SIG_DFL) != SIG_ERR);
	CHECK(signal(SIGHUP, SIG_IGN) != SIG_ERR);
	CHECK(signal(SIGINT, SIG_IGN) != SIG_ERR);
	execl(argv[0], argv[0], "parent", (char *)NULL);
	perror(argv[0]);
	return 1;
}
