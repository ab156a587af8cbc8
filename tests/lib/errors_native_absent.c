/* SPDX-License-Identifier: MIT */
/* SIGFD_BACKEND=native, the kernel's own creator-bound signalfd (SFD_CREATOR,
 * kernel/'s patch series). Where the running kernel lacks the flag (every
 * stock kernel; the probe's EINVAL), forcing it fails with ENOSYS, creates
 * no descriptor and keeps errno on success paths; the default share mode
 * still works through another backend, and sigfd_setmask() on local
 * descriptors is unaffected by the probe. Where the kernel has it (the
 * patched guest), forcing it gives a signalfd bound to its creator. */
#include <fcntl.h>
#include <string.h>
#include <sys/signalfd.h>

#include "check.h"

#ifndef SFD_CREATOR
#define SFD_CREATOR 0x00000001
#endif

int main(void)
{
	sigset_t set = set_of(SIGUSR1), none;
	block_only(&set);
	sigemptyset(&none);

	int probe = signalfd(-1, &none, SFD_CREATOR | SFD_CLOEXEC);
	int present = probe >= 0;
	CHECK(present || errno == EINVAL);
	if (present)
		CHECK(close(probe) == 0);

	int free_before = lowest_free_fd();
	CHECK(setenv("SIGFD_BACKEND", "native", 1) == 0);
	errno = 0;
	int fd = sigfd(&set, SIGFD_SHARE | SIGFD_NONBLOCK);
	if (!present) {
		CHECK(fd == -1);
		CHECK(errno == ENOSYS);
		CHECK(lowest_free_fd() == free_before);
		/* Asked again: the same answer (the probe is remembered). */
		errno = 0;
		CHECK(sigfd(&set, SIGFD_SHARE) == -1 && errno == ENOSYS);
	} else {
		CHECK(fd >= 0);
		CHECK(errno == 0);
		CHECK(fdinfo_has(fd, "creator:"));
		CHECK(kill(getpid(), SIGUSR1) == 0);
		CHECK(read_one(fd).ssi_signo == SIGUSR1);
		CHECK(sigfd_setmask(fd, &none) == 0);
		CHECK(close(fd) == 0);
	}

	/* The default share mode falls through to a backend that exists. */
	CHECK(unsetenv("SIGFD_BACKEND") == 0);
	fd = sigfd(&set, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(fd >= 0);
	CHECK(present == fdinfo_has(fd, "creator:"));
	CHECK(kill(getpid(), SIGUSR1) == 0);
	/* The user-space backend forwards asynchronously: wait for it. */
	CHECK(poll_events(fd, POLLIN, 10000) & POLLIN);
	CHECK(read_one(fd).ssi_signo == SIGUSR1);
	CHECK(close(fd) == 0);

	/* A local descriptor's mask still changes, errno untouched. */
	fd = sigfd(&set, SIGFD_NONBLOCK);
	CHECK(fd >= 0);
	errno = 12345;
	CHECK(sigfd_setmask(fd, &none) == 0);
	CHECK(errno == 12345);
	CHECK(close(fd) == 0);
	/* The user-space backend's thread closes its fds once it has seen the
	 * last share fd go. */
	WAIT_UNTIL(lowest_free_fd() == free_before);
	return 0;
}
