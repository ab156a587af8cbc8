/* SPDX-License-Identifier: MIT */
/* Children get back the signals sigfd took: every signal this process has
 * given to a sigfd is blocked in the child only if it was blocked when the
 * process started, and has the action it had then (ignored, or default).
 * Every other signal is left as the caller has it. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>

#include "sigfd.h"
#include "taken.h"

#define PUBLIC __attribute__((visibility("default")))

/* mask, with each taken signal blocked or not as at start. */
static void restore_bits(sigset_t *mask, uint64_t taken)
{
	uint64_t blocked = sigfd_start_blocked();

	for (int sig = 1; sig < NSIG; sig++) {
		if (!(taken & SIGFD_BIT(sig)))
			continue;
		if (blocked & SIGFD_BIT(sig))
			sigaddset(mask, sig);
		else
			sigdelset(mask, sig);
	}
}

PUBLIC int sigfd_spawnattr(posix_spawnattr_t *attr)
{
	uint64_t taken = sigfd_taken(), ignored = sigfd_start_ignored();
	sigset_t mask, dfl;
	short flags;
	int rc;

	if (!attr) {
		errno = EINVAL;
		return -1;
	}
	if ((rc = posix_spawnattr_getflags(attr, &flags)))
		goto fail;
	/* A mask or default set the caller put in attr is the base we edit. */
	if (flags & POSIX_SPAWN_SETSIGMASK)
		rc = posix_spawnattr_getsigmask(attr, &mask);
	else
		rc = pthread_sigmask(SIG_BLOCK, NULL, &mask);
	if (rc)
		goto fail;
	if (flags & POSIX_SPAWN_SETSIGDEF) {
		if ((rc = posix_spawnattr_getsigdefault(attr, &dfl)))
			goto fail;
	} else
		sigemptyset(&dfl);
	restore_bits(&mask, taken);
	/* posix_spawn() can reset a signal to its default action but cannot
	 * make one ignored: a signal ignored at start keeps the caller's
	 * current action (ignored stays ignored; a handler becomes default). */
	for (int sig = 1; sig < NSIG; sig++)
		if ((taken & SIGFD_BIT(sig)) && !(ignored & SIGFD_BIT(sig)))
			sigaddset(&dfl, sig);
	if ((rc = posix_spawnattr_setsigmask(attr, &mask)) ||
	    (rc = posix_spawnattr_setsigdefault(attr, &dfl)) ||
	    (rc = posix_spawnattr_setflags(attr, flags | POSIX_SPAWN_SETSIGMASK |
							 POSIX_SPAWN_SETSIGDEF)))
		goto fail;
	return 0;
fail:
	errno = rc;
	return -1;
}

/* Only sigaction() and sigprocmask(): async-signal-safe, for a child
 * forked by a threaded process. */
PUBLIC int sigfd_restore_signals(void)
{
	uint64_t taken = sigfd_taken(), ignored = sigfd_start_ignored();
	sigset_t mask;

	/* Actions first, so that no signal unblocked below meets a handler
	 * meant for the parent. */
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction sa = {0};
		if (!(taken & SIGFD_BIT(sig)))
			continue;
		sa.sa_handler = (ignored & SIGFD_BIT(sig)) ? SIG_IGN : SIG_DFL;
		sigemptyset(&sa.sa_mask);
		if (sigaction(sig, &sa, NULL) < 0)
			return -1;
	}
	if (sigprocmask(SIG_BLOCK, NULL, &mask) < 0)
		return -1;
	restore_bits(&mask, taken);
	return sigprocmask(SIG_SETMASK, &mask, NULL);
}
