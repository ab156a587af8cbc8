/* SPDX-License-Identifier: MIT */
/* fdinfo shows the mask whole while the creator changes it: another
 * process reads it 2,000 times as the creator flips it 2,000 times between
 * two masks, and sees only those two. After the creator's exit it shows
 * the last mask and the creator's pid, numbered by the /proc it is read
 * through, also for a reader in a child pid namespace. */
#include <sched.h>

#include "kmod_util.h"

#define FLIPS 2000

static void set_mask(int fd, uint64_t mask)
{
	struct sigfd_params p = { .size = sizeof p, .mask = mask };

	CHECK(ioctl(fd, SIGFD_IOC_SETMASK, &p) == 0);
}

/* A number from a "name:\tvalue" line of fdinfo; -1 without that line. */
static long fdinfo_field(int fd, const char *name)
{
	char path[64], line[128];
	size_t len = strlen(name);
	long value = -1;
	FILE *f;

	snprintf(path, sizeof path, "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	CHECK(f != NULL);
	while (fgets(line, sizeof line, f))
		if (strncmp(line, name, len) == 0 && line[len] == ':')
			value = strtol(line + len + 1, NULL, 10);
	CHECK(fclose(f) == 0);
	return value;
}

int main(void)
{
	const uint64_t a = bit(SIGUSR1) | bit(SIGRTMIN), b = bit(SIGUSR2) | bit(SIGRTMAX);
	int fds_before = fd_count(), link[2], fd;
	pid_t reader, creator;

	fd = raw_create(a, 0);
	CHECK(fd >= 0);
	reader = fork();
	CHECK(reader >= 0);
	if (reader == 0) {
		for (int i = 0; i < FLIPS; i++) {
			uint64_t m = fdinfo_mask(fd);
			if (m != a && m != b) {
				fprintf(stderr, "fdinfo mask %llx\n", (unsigned long long)m);
				_exit(1);
			}
		}
		_exit(0);
	}
	for (int i = 0; i < FLIPS; i++)
		set_mask(fd, i % 2 ? a : b);
	reap_ok(reader);
	CHECK(close(fd) == 0);

	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, link) == 0);
	creator = fork();
	CHECK(creator >= 0);
	if (creator == 0) {
		int f = raw_create(a, 0);
		CHECK(f >= 0);
		set_mask(f, b);
		send_fd(link[1], f);
		_exit(0);
	}
	fd = recv_fd(link[0]);
	reap_ok(creator);
	CHECK(fdinfo_mask(fd) == b);
	CHECK(fdinfo_field(fd, "creator") == creator);
	/* Numbered as the /proc read through numbers tasks: the same to a
	 * reader in a child pid namespace, which cannot see the creator. */
	reader = fork();
	CHECK(reader >= 0);
	if (reader == 0) {
		pid_t inner;

		CHECK(unshare(CLONE_NEWPID) == 0);
		inner = fork();
		CHECK(inner >= 0);
		if (inner == 0)
			_exit(fdinfo_field(fd, "creator") == creator ? 0 : 1);
		reap_ok(inner);
		_exit(0);
	}
	reap_ok(reader);
	CHECK(close(fd) == 0 && close(link[0]) == 0 && close(link[1]) == 0);
	CHECK(fd_count() == fds_before);
	return 0;
}
