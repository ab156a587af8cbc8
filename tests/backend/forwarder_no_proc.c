/* SPDX-License-Identifier: MIT */
/* Without /proc the user-space backend cannot look at the other threads'
 * masks, so it could not leave the program the signals a thread keeps
 * unblocked: sigfd() in share mode fails with ENOENT (sigfd(3) ERRORS),
 * creates no descriptor and takes nothing: a signal pending before stays
 * pending. Run in a child with a mount namespace of its own, /proc
 * unmounted there (root only). */
#include <sched.h>
#include <sys/mount.h>

#include "share_util.h"

int main(void)
{
	sigset_t usr1 = set_of(SIGUSR1);
	pid_t child;

	block_only(&usr1);
	CHECK(setenv("SIGFD_BACKEND", "user", 1) == 0);
	if (geteuid() != 0) {
		puts("SKIPPED: needs root, to unmount /proc in a mount namespace of its own");
		return 77;
	}
	child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		int before, fd;

		leak_check_off();
		CHECK(unshare(CLONE_NEWNS) == 0);
		CHECK(mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) == 0);
		CHECK(umount2("/proc", MNT_DETACH) == 0);
		CHECK(kill(getpid(), SIGUSR1) == 0);
		before = lowest_free_fd();
		errno = 0;
		fd = sigfd(&usr1, SIGFD_SHARE);
		CHECK(fd == -1 && errno == ENOENT);
		CHECK(lowest_free_fd() == before);
		CHECK(pending_has(SIGUSR1));
		_exit(0);
	}
	reap_ok(child);
	return 0;
}
