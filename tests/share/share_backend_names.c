/* SPDX-License-Identifier: MIT */
/* SIGFD_BACKEND takes each share-mode backend by the name that says what it
 * is and by the name it had first: sfd-creator or native (the kernel's
 * SFD_CREATOR), module or kernel (/dev/sigfd), thread or user (a forwarding
 * thread). Both names of a backend give the same kind of descriptor, or the
 * same error where that backend is absent here. */
#include <string.h>

#include "check.h"

/* What a descriptor is, or the errno that refused it: "socket" for any
 * socket, else the anon inode's name. */
static void kind_of(const char *backend, char *out, size_t size)
{
	sigset_t set = set_of(SIGUSR1);
	char path[64];
	ssize_t n;
	int fd;

	CHECK(setenv("SIGFD_BACKEND", backend, 1) == 0);
	errno = 0;
	fd = sigfd(&set, SIGFD_SHARE | SIGFD_CLOEXEC);
	if (fd < 0) {
		snprintf(out, size, "errno %d", errno);
		return;
	}
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	n = readlink(path, out, size - 1);
	CHECK(n > 0);
	out[n] = 0;
	if (strncmp(out, "socket:", 7) == 0)
		out[6] = 0;
	CHECK(close(fd) == 0);
}

int main(void)
{
	static const char *const pairs[][2] = {
		{ "sfd-creator", "native" },
		{ "module", "kernel" },
		{ "thread", "user" },
	};
	char first[128], second[128];
	sigset_t set = set_of(SIGUSR1);

	block_only(&set);
	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
		kind_of(pairs[i][0], first, sizeof first);
		kind_of(pairs[i][1], second, sizeof second);
		if (strcmp(first, second) != 0) {
			fprintf(stderr, "%s gave %s, %s gave %s\n", pairs[i][0],
				first, pairs[i][1], second);
			CHECK(!"both names of a backend agree");
		}
	}
	kind_of("thread", first, sizeof first);
	CHECK(strcmp(first, "socket") == 0);
	kind_of("Thread", first, sizeof first);
	CHECK(strcmp(first, "errno 22") == 0); /* EINVAL: names are exact */
	CHECK(unsetenv("SIGFD_BACKEND") == 0);
	return 0;
}
