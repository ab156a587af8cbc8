/* SPDX-License-Identifier: MIT */
/* A periodic ITIMER_REAL survives exec, and its pending SIGALRM goes to the
 * descriptor at the exec: the hand-over restarts the timer as a dequeue of
 * that SIGALRM would have (ITIMER_REAL re-arms only when its signal is
 * taken), so the new program keeps getting SIGALRM. Without the restart the
 * new program's sigwaitinfo() would wait for ever (the harness's limit). */
#include <sys/time.h>

#include "kmod_util.h"

static char self[] = "/proc/self/exe";

/* The new program: the timer's next SIGALRM (the one pending at the exec
 * is on the descriptor, which the parent checks). */
static int new_image(void)
{
	sigset_t alrm = set_of(SIGALRM);
	siginfo_t si;

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
	r = read_one(fd);
	CHECK(r.ssi_signo == SIGALRM && r.ssi_code == SI_KERNEL);
	CHECK(read(fd, &r, sizeof r) == 0);
	CHECK(close(fd) == 0);
	close_pair(link);
	CHECK(fd_count() == fds_before);
	return 0;
}
