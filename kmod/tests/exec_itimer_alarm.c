/* SPDX-License-Identifier: MIT */
/* A periodic ITIMER_REAL survives exec, and so does its pending SIGALRM:
 * the exec takes nothing for the descriptor, which reads end of file. The
 * new program takes that SIGALRM, which restarts the timer (ITIMER_REAL
 * re-arms only when its signal is taken), then the next. Had the exec
 * taken it without the restart, the new program's sigwaitinfo() would wait
 * for ever (the harness's limit). */
#include <sys/time.h>

#include "kmod_util.h"

static char self[] = "/proc/self/exe";

/* The new program: the SIGALRM pending at the exec, then the next. */
static int new_image(void)
{
	sigset_t alrm = set_of(SIGALRM);
	siginfo_t si;

	CHECK(sigtimedwait(&alrm, &si, &(struct timespec){ 0, 0 }) == SIGALRM);
	CHECK(si.si_code == SI_KERNEL);
	CHECK(sigwaitinfo(&alrm, &si) == SIGALRM && si.si_code == SI_KERNEL);
	return 0;
}

int main(int argc, char **argv)
{
	struct itimerval it = { .it_interval.tv_usec = 10000, .it_value.tv_usec = 10000 };
	sigset_t alrm = set_of(SIGALRM);
	int fds_before = fd_count(), link[2], fd;
	struct sigfd_siginfo r;
	pid_t creator;

	if (argc == 2 && strcmp(argv[1], "new-image") == 0)
		return new_image();
	block_only(&alrm);
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, link) == 0);
	creator = fork();
	CHECK(creator >= 0);
	if (creator == 0) {
		int f = raw_create(bit(SIGALRM), SIGFD_KF_CLOEXEC);

		CHECK(f >= 0);
		CHECK(setitimer(ITIMER_REAL, &it, NULL) == 0);
		WAIT_UNTIL(pending_has(SIGALRM));
		send_fd(link[1], f);
		execl(self, self, "new-image", (char *)NULL);
		_exit(127);
	}
	fd = recv_fd(link[0]);
	reap_ok(creator);
	CHECK(read(fd, &r, sizeof r) == 0);
	CHECK(close(fd) == 0);
	close_pair(link);
	CHECK(fd_count() == fds_before);
	return 0;
}
