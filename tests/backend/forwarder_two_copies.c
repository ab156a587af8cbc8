/* SPDX-License-Identifier: MIT */
/* Two copies of the library in one process, the static archive linked in
 * and libsigfd.so loaded with dlopen(), each with a share fd and so each
 * with a forwarding thread: both forward, and when main() calls
 * pthread_exit() the two threads do not keep each other alive: the process
 * ends with status 0, each share fd gives its record, then end of file. The
 * creator is a fresh image (see share_main_pthread_exit). The user-space
 * backend only. */
#include <dlfcn.h>
#include <libgen.h>
#include <pthread.h>
#include <sys/socket.h>

#include "share_util.h"

static int creator_image(const char *so, int link)
{
	sigset_t usr1 = set_of(SIGUSR1), usr2 = set_of(SIGUSR2);
	void *lib;
	int (*other_sigfd)(const sigset_t *, unsigned long);

	leak_check_off();
	lib = dlopen(so, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		fprintf(stderr, "dlopen %s: %s\n", so, dlerror());
		exit(1);
	}
	*(void **)&other_sigfd = dlsym(lib, "sigfd");
	CHECK(other_sigfd != NULL && other_sigfd != sigfd);
	int mine = sigfd(&usr1, SIGFD_SHARE), theirs = other_sigfd(&usr2, SIGFD_SHARE);
	CHECK(mine >= 0 && theirs >= 0);
	send_fd(link, mine);
	send_fd(link, theirs);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(kill(getpid(), SIGUSR2) == 0);
	pthread_exit(NULL);
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "creator") == 0)
		return creator_image(argv[2], atoi(argv[3]));
	if (UNDER_TSAN) {
		puts("SKIPPED: under ThreadSanitizer a process whose main thread calls pthread_exit() never ends, library or not (its own background thread lives on)");
		return 77;
	}
	sigset_t both = set_of(SIGUSR1);
	sigaddset(&both, SIGUSR2);
	block_only(&both);
	CHECK(setenv("SIGFD_BACKEND", "user", 1) == 0); /* inherited by the creator */

	char self[4096], so[4200];
	snprintf(self, sizeof self, "%s", argv[0]);
	snprintf(so, sizeof so, "%s/../../lib/libsigfd.so.0", dirname(self));
	CHECK(access(so, R_OK) == 0);
	int link[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, link) == 0);
	pid_t creator = fork();
	CHECK(creator >= 0);
	if (creator == 0) {
		char fd[16];
		snprintf(fd, sizeof fd, "%d", link[0]);
		CHECK(fcntl(link[0], F_SETFD, 0) == 0);
		execl(argv[0], argv[0], "creator", so, fd, (char *)NULL);
		_exit(127);
	}
	int mine = recv_fd(link[1]), theirs = recv_fd(link[1]);
	int status, waited = 0;
	pid_t r;
	while ((r = waitpid(creator, &status, WNOHANG)) == 0 && waited++ < 2000)
		poll(NULL, 0, 5);
	if (r == 0) {
		fprintf(stderr, "the creator has not ended 10 s after its main thread, its forwarding threads left\n");
		kill(creator, SIGKILL);
		waitpid(creator, NULL, 0);
		return 1;
	}
	CHECK(r == creator && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(read_one(mine).ssi_signo == SIGUSR1);
	CHECK(read_one(theirs).ssi_signo == SIGUSR2);
	struct sigfd_siginfo rec;
	CHECK(read(mine, &rec, sizeof rec) == 0);
	CHECK(read(theirs, &rec, sizeof rec) == 0);
	CHECK(close(mine) == 0 && close(theirs) == 0);
	close_pair(link);
	return 0;
}
