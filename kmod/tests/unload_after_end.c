/* SPDX-License-Identifier: MIT */
/* The module unloads right after a creator's end, and the creator's exit
 * completes: the unload waits until the end's task work has left the
 * module's code, past its module_put() (sigfd_exit()). Given a path, a
 * test build of sigfd.ko is swapped in first, one that holds that task
 * work in the module's code after its module_put() until the unload has
 * had time to free it (SIGFD_TEST_WIDEN_END: kmod/guest-run.sh's suite
 * "end"); /sigfd.ko is loaded again at the end. */
#include <sys/wait.h>

#include "kmod_util.h"

/* Unloads the module if nothing holds it any more: 1, else 0. */
static int unloaded_if_free(void)
{
	if (unload_module() == 0)
		return 1;
	CHECK(errno == EAGAIN || errno == EBUSY);
	return 0;
}

int main(int argc, char **argv)
{
	char rec[128];
	int sv[2], fd, status;
	pid_t creator;

	if (argc > 1) {
		/* The last test's descriptors may still be on their way out. */
		WAIT_UNTIL(unloaded_if_free());
		load_module(argv[1]);
	}
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
	creator = fork();
	CHECK(creator >= 0);
	if (creator == 0) {
		fd = raw_create(bit(SIGUSR1), 0);
		CHECK(fd >= 0);
		send_fd(sv[1], fd);
		_exit(0); /* its end runs as task work of this exit */
	}
	CHECK(close(sv[1]) == 0);
	fd = recv_fd(sv[0]);
	CHECK(close(sv[0]) == 0);
	assert_kernel_fd(fd);
	/* End of file: the creator's end has run, up to its module_put(). */
	CHECK(read(fd, rec, sizeof rec) == 0);
	CHECK(close(fd) == 0);
	/* Refused while the end still holds the module, then unloaded. */
	WAIT_UNTIL(unloaded_if_free());
	CHECK(waitpid(creator, &status, 0) == creator);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	load_module("/sigfd.ko");
	return 0;
}
