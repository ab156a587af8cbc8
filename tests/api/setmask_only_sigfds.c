/* SPDX-License-Identifier: MIT */
/* sigfd_setmask() accepts only what sigfd() returned and copies of it (dup,
 * fork, SCM_RIGHTS): an O_PATH descriptor is open but no sigfd (EINVAL, not
 * EBADF), in either mode; in the user-space share mode, the library's end
 * of the door to its thread, a socket in the program's table, is no sigfd:
 * EINVAL, and the share fd's mask is unchanged. */
#include <dirent.h>
#include <sys/socket.h>

#include "share_util.h"

static void refused(int fd, const sigset_t *mask, const char *what)
{
	errno = 0;
	if (sigfd_setmask(fd, mask) != -1 || errno != EINVAL) {
		fprintf(stderr, "setmask on %s: want -1/EINVAL, got errno %d (%s)\n", what, errno,
			strerror(errno));
		exit(1);
	}
}

static int reopen(int fd, int flags)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	int copy = open(path, flags | O_CLOEXEC);
	CHECK(copy >= 0);
	return copy;
}

/* fd still reports SIGUSR1 only: the refused calls changed nothing. */
static void still_usr1(int fd)
{
	CHECK(kill(getpid(), SIGUSR2) == 0);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(poll_events(fd, POLLIN, 10000) & POLLIN);
	CHECK(read_one(fd).ssi_signo == SIGUSR1);
	sigset_t usr2 = set_of(SIGUSR2);
	struct timespec now = { 0, 0 };
	WAIT_UNTIL(pending_has(SIGUSR2));
	CHECK(sigtimedwait(&usr2, NULL, &now) == SIGUSR2);
}

int main(void)
{
	sigset_t usr1 = set_of(SIGUSR1), usr2 = set_of(SIGUSR2), both = usr1;
	sigaddset(&both, SIGUSR2);
	block_only(&both);

	/* O_PATH: of a file, and of a sigfd of either mode. */
	int path = open("/", O_PATH | O_CLOEXEC);
	CHECK(path >= 0);
	refused(path, &usr2, "an O_PATH fd of /");
	CHECK(close(path) == 0);
	for (int m = 0; m < 2; m++) {
		int fd = sigfd(&usr1, (m ? SIGFD_SHARE : 0) | SIGFD_NONBLOCK | SIGFD_CLOEXEC);
		CHECK(fd >= 0);
		path = reopen(fd, O_PATH);
		refused(path, &usr2, "an O_PATH fd of a sigfd");
		CHECK(close(path) == 0);
		still_usr1(fd);
		CHECK(close(fd) == 0);
	}
	/* Its thread gone, so the scan below meets no descriptor of the
	 * library that is being closed. */
	WAIT_UNTIL(forwarders() == 0);

	int fd = sigfd(&usr1, SIGFD_SHARE | SIGFD_NONBLOCK | SIGFD_CLOEXEC);
	CHECK(fd >= 0);
	int door = library_door(fd);
	if (!kernel_backend(fd)) {
		CHECK(door >= 0);
		refused(door, &usr2, "the library's end of the door");
	}
	still_usr1(fd);

	/* Copies are the share fd: dup(), and SCM_RIGHTS to ourselves. */
	int copy = dup(fd);
	CHECK(copy >= 0);
	CHECK(sigfd_setmask(copy, &usr2) == 0);
	CHECK(close(copy) == 0);
	int link[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, link) == 0);
	send_fd(link[0], fd);
	copy = recv_fd(link[1]);
	CHECK(sigfd_setmask(copy, &usr1) == 0);
	CHECK(close(copy) == 0);
	close_pair(link);
	still_usr1(fd);
	CHECK(close(fd) == 0);
	return 0;
}
