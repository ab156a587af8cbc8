/* SPDX-License-Identifier: MIT */
/* A descriptor nobody holds any more takes nothing: the creator's only
 * copy is close-on-exec, so the exec closes it before the signals would
 * move; they stay pending for the new program, which takes them itself. */
#include "kmod_util.h"

static int new_image(void)
{
	sigset_t rt = set_of(SIGRTMIN);
	siginfo_t si;

	CHECK(pending_has(SIGRTMIN));
	CHECK(sigwaitinfo(&rt, &si) == SIGRTMIN && si.si_value.sival_int == 4);
	return 0;
}

int main(int argc, char **argv)
{
	sigset_t rt = set_of(SIGRTMIN);
	int fds_before;
	pid_t creator;

	if (argc == 2 && strcmp(argv[1], "image") == 0)
		return new_image();
	fds_before = fd_count();
	block_only(&rt);
	creator = fork();
	CHECK(creator >= 0);
	if (creator == 0) {
		int fd = raw_create(bit(SIGRTMIN), SIGFD_KF_CLOEXEC);

		CHECK(fd >= 0);
		CHECK(sigqueue(getpid(), SIGRTMIN, int_val(4)) == 0);
		CHECK(queued_bytes(fd) == 128);
		execl("/proc/self/exe", "/proc/self/exe", "image", (char *)NULL);
		_exit(127);
	}
	reap_ok(creator);
	CHECK(fd_count() == fds_before);
	return 0;
}
