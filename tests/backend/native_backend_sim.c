/* SPDX-License-Identifier: MIT */
/* The native backend's side of the bargain with the kernel, on a host
 * whose kernel has no SFD_CREATOR: signalfd() is wrapped (-Wl,--wrap) to
 * act as a patched kernel would, or to fail as the probe may see it fail.
 * The real SFD_CREATOR runs in the patched-kernel guest (kernel/run.sh).
 * Checked: a probe that fails for want of descriptors lets that sigfd()
 * fail as the kernel says (EMFILE, no fd left behind) and is not
 * remembered, but made again by the next call; once the flag is there, share fds are SFD_CREATOR
 * signalfds with the caller's flags mapped; sigfd_setmask() updates them,
 * passes a kernel EPERM on, and takes the kernel's EINVAL for "not one of
 * mine", so a user-space share fd opened meanwhile still has its mask
 * changed; errno is untouched on success. */
#include <stdbool.h>
#include <sys/signalfd.h>

#include "share_util.h"

#ifndef SFD_CREATOR
#define SFD_CREATOR 0x00000001
#endif

static enum { KERNEL_NO_FD, KERNEL_HAS_FLAG, KERNEL_EPERM } kernel;
static int creator_calls, last_flags;
static int creator_fd[16], ncreator;

int __real_signalfd(int fd, const sigset_t *mask, int flags);
int __wrap_signalfd(int fd, const sigset_t *mask, int flags);
int __wrap_signalfd(int fd, const sigset_t *mask, int flags)
{
	bool known = false;

	if (!(flags & SFD_CREATOR))
		return __real_signalfd(fd, mask, flags);
	creator_calls++;
	last_flags = flags;
	if (kernel == KERNEL_NO_FD) {
		errno = EMFILE;
		return -1;
	}
	for (int i = 0; i < ncreator; i++)
		known |= creator_fd[i] == fd;
	if (fd != -1 && !known) {
		errno = EINVAL; /* the patched kernel: not a creator-bound signalfd */
		return -1;
	}
	if (fd != -1 && kernel == KERNEL_EPERM) {
		errno = EPERM;
		return -1;
	}
	int got = __real_signalfd(fd, mask, flags & ~SFD_CREATOR);
	if (got >= 0 && fd == -1) {
		CHECK(ncreator < 16);
		creator_fd[ncreator++] = got;
	}
	return got;
}

static void forget(int fd)
{
	for (int i = 0; i < ncreator; i++)
		if (creator_fd[i] == fd)
			creator_fd[i] = creator_fd[--ncreator];
	CHECK(close(fd) == 0);
}

int main(void)
{
	sigset_t set = set_of(SIGUSR1), other = set_of(SIGUSR2), both = set, none;
	struct stat st;
	int calls;

	sigaddset(&both, SIGUSR2);
	block_only(&both);
	sigemptyset(&none);
	CHECK(unsetenv("SIGFD_BACKEND") == 0);

	/* Out of descriptors, the probe cannot tell: the call fails as the
	 * kernel says... */
	kernel = KERNEL_NO_FD;
	int free_before = lowest_free_fd();
	CHECK(sigfd(&set, SIGFD_SHARE) == -1 && errno == EMFILE);
	CHECK(creator_calls >= 1 && lowest_free_fd() == free_before);

	/* ...and the next call asks the kernel again. */
	kernel = KERNEL_HAS_FLAG;
	calls = creator_calls;
	errno = 4321;
	int fd = sigfd(&set, SIGFD_SHARE | SIGFD_NONBLOCK | SIGFD_CLOEXEC);
	CHECK(fd >= 0 && errno == 4321);
	CHECK(creator_calls == calls + 2); /* the probe, then the open */
	CHECK(last_flags == (SFD_CREATOR | SFD_NONBLOCK | SFD_CLOEXEC));
	CHECK(fcntl(fd, F_GETFL) & O_NONBLOCK);
	CHECK(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	int plain = sigfd(&set, SIGFD_SHARE);
	CHECK(plain >= 0);
	CHECK(last_flags == SFD_CREATOR);
	CHECK(!(fcntl(plain, F_GETFL) & O_NONBLOCK));
	CHECK(!(fcntl(plain, F_GETFD) & FD_CLOEXEC));
	forget(plain);

	/* A user-space share fd beside them (forced: the default is native now). */
	CHECK(setenv("SIGFD_BACKEND", "user", 1) == 0);
	int user_fd = sigfd(&other, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(user_fd >= 0);
	CHECK(fstat(user_fd, &st) == 0 && S_ISSOCK(st.st_mode));
	CHECK(unsetenv("SIGFD_BACKEND") == 0);

	/* The kernel holds the mask: a signal leaving it is not read. */
	CHECK(sigfd_setmask(fd, &none) == 0 && errno == 4321);
	CHECK(last_flags == SFD_CREATOR);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	char buf[sizeof(struct sigfd_siginfo)];
	CHECK(read(fd, buf, sizeof buf) == -1 && errno == EAGAIN);
	CHECK(sigfd_setmask(fd, &set) == 0);
	CHECK(read_one(fd).ssi_signo == SIGUSR1);

	/* EINVAL from the kernel: not its fd; the user-space one still works. */
	calls = creator_calls;
	errno = 4321;
	CHECK(sigfd_setmask(user_fd, &none) == 0 && errno == 4321);
	CHECK(creator_calls == calls + 1);

	/* EPERM from the kernel reaches the caller. */
	kernel = KERNEL_EPERM;
	CHECK(sigfd_setmask(fd, &set) == -1 && errno == EPERM);

	forget(fd);
	CHECK(close(user_fd) == 0);
	WAIT_UNTIL(forwarders() == 0);
	return 0;
}
