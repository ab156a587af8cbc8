/* SPDX-License-Identifier: MIT */
/* sigfd_restore_signals() in the calling process itself (not only in a
 * child about to exec): a signal given to a sigfd gets back the mask bit
 * and action it had at start; sigfd_spawnattr() edits a mask and a default
 * set the caller already put in the attribute (with their flags: a default
 * set stored without POSIX_SPAWN_SETSIGDEF is replaced), and refuses NULL. */
#include <spawn.h>

#include "check.h"

int main(void)
{
	sigset_t usr1 = set_of(SIGUSR1), now, mask, dfl;
	posix_spawnattr_t attr;
	short flags;

	block_only(&usr1);
	int fd = sigfd(&usr1, 0);
	CHECK(fd >= 0);
	CHECK(sigfd_spawnattr(NULL) == -1 && errno == EINVAL);
	CHECK(posix_spawnattr_init(&attr) == 0);
	sigfillset(&mask);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGHUP);
	CHECK(posix_spawnattr_setsigmask(&attr, &mask) == 0);
	CHECK(posix_spawnattr_setsigdefault(&attr, &dfl) == 0);
	CHECK(posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) == 0);
	CHECK(sigfd_spawnattr(&attr) == 0);
	CHECK(posix_spawnattr_getflags(&attr, &flags) == 0);
	CHECK(posix_spawnattr_getsigmask(&attr, &mask) == 0);
	CHECK(posix_spawnattr_getsigdefault(&attr, &dfl) == 0);
	/* The caller's base kept, the taken signal given back. */
	CHECK(sigismember(&mask, SIGUSR1) == 0 && sigismember(&mask, SIGTERM) == 1);
	CHECK(sigismember(&dfl, SIGHUP) == 1 && sigismember(&dfl, SIGUSR1) == 1);
	CHECK(posix_spawnattr_destroy(&attr) == 0);
	/* A default set stored without POSIX_SPAWN_SETSIGDEF had no effect,
	 * and is not made to have one once sigfd_spawnattr() sets the flag. */
	CHECK(posix_spawnattr_init(&attr) == 0);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGHUP);
	CHECK(posix_spawnattr_setsigdefault(&attr, &dfl) == 0);
	CHECK(sigfd_spawnattr(&attr) == 0);
	CHECK(posix_spawnattr_getsigdefault(&attr, &dfl) == 0);
	CHECK(sigismember(&dfl, SIGHUP) == 0 && sigismember(&dfl, SIGUSR1) == 1);
	CHECK(posix_spawnattr_destroy(&attr) == 0);
	CHECK(sigfd_restore_signals() == 0);
	CHECK(sigprocmask(SIG_BLOCK, NULL, &now) == 0);
	CHECK(sigismember(&now, SIGUSR1) == 0);
	CHECK(close(fd) == 0);
	return 0;
}
