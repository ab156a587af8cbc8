/* SPDX-License-Identifier: MIT */
/* The module cannot be unloaded while a descriptor (or /dev/sigfd itself)
 * is open; once all are closed it unloads, and loads again. */
#include "kmod_util.h"

static int loaded(void)
{
	char line[256];
	int found = 0;
	FILE *f = fopen("/proc/modules", "r");

	CHECK(f != NULL);
	while (fgets(line, sizeof line, f))
		if (strncmp(line, "sigfd ", 6) == 0)
			found = 1;
	fclose(f);
	return found;
}

int main(void)
{
	sigset_t mask = set_of(SIGUSR1);
	int fd, dev;

	block_only(&mask);
	fd = sigfd(&mask, SIGFD_SHARE);
	CHECK(fd >= 0);
	assert_kernel_fd(fd);
	errno = 0;
	CHECK(unload_module() == -1 && (errno == EAGAIN || errno == EBUSY));
	CHECK(loaded());
	/* Still works after the refusal. */
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(read_one(fd).ssi_signo == SIGUSR1);
	CHECK(close(fd) == 0);

	dev = open("/dev/sigfd", O_RDONLY);
	CHECK(dev >= 0);
	errno = 0;
	CHECK(unload_module() == -1 && (errno == EAGAIN || errno == EBUSY));
	CHECK(close(dev) == 0);

	CHECK(unload_module() == 0);
	CHECK(!loaded());
	errno = 0;
	CHECK(sigfd(&mask, SIGFD_SHARE) == -1 && errno == ENOSYS);
	load_module("/sigfd.ko");
	CHECK(loaded());
	fd = sigfd(&mask, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(fd >= 0);
	assert_kernel_fd(fd);
	CHECK(close(fd) == 0);
	return 0;
}
