/* SPDX-License-Identifier: MIT */
/* Held descriptors of reaped creators cost little: 500 children each
 * create a descriptor, pass it to us and exit; we reap them and hold the
 * descriptors. The slab this costs per creator is printed beside what
 * pidfds of as many reaped processes cost, and must stay under 4 KiB (a
 * pinned task_struct with its signal_struct and credentials is more than
 * twice that). */
#include <sys/syscall.h>

#include "kmod_util.h"

#define CREATORS 500

static long slab_kb(void)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	CHECK(f != NULL);
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "Slab: %ld kB", &kb) == 1)
			break;
	fclose(f);
	CHECK(kb >= 0);
	return kb;
}

/* Fork CREATORS children that exit at once; hold what hold() gives for each. */
static void spawn(int *held, int (*hold)(int sock, pid_t child))
{
	for (int i = 0; i < CREATORS; i++) {
		int link[2];
		pid_t child;

		CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, link) == 0);
		child = fork();
		CHECK(child >= 0);
		if (child == 0) {
			int fd = raw_create(bit(SIGUSR1), 0);
			CHECK(fd >= 0);
			send_fd(link[1], fd);
			_exit(0);
		}
		CHECK(close(link[1]) == 0); /* a child that fails is end of file */
		held[i] = hold(link[0], child);
		reap_ok(child);
		CHECK(close(link[0]) == 0);
	}
}

static int hold_sigfd(int sock, pid_t child)
{
	(void)child;
	return recv_fd(sock);
}

static int hold_pidfd(int sock, pid_t child)
{
	int fd = (int)syscall(SYS_pidfd_open, child, 0);
	CHECK(fd >= 0);
	CHECK(close(recv_fd(sock)) == 0);
	return fd;
}

static long held_bytes(int (*hold)(int sock, pid_t child))
{
	static int held[CREATORS];
	long before, after;

	before = slab_kb();
	spawn(held, hold);
	after = slab_kb();
	for (int i = 0; i < CREATORS; i++)
		CHECK(close(held[i]) == 0);
	return (after - before) * 1024 / CREATORS;
}

int main(void)
{
	int fds_before = fd_count();
	static int warm[CREATORS];
	long per_sigfd, per_pidfd;

	spawn(warm, hold_pidfd); /* fill the slab caches first */
	for (int i = 0; i < CREATORS; i++)
		CHECK(close(warm[i]) == 0);
	per_pidfd = held_bytes(hold_pidfd);
	per_sigfd = held_bytes(hold_sigfd);
	printf("slab per held dead creator: %ld bytes (a pidfd of a reaped process: %ld)\n",
	       per_sigfd, per_pidfd);
	CHECK(per_sigfd < 4096);
	CHECK(fd_count() == fds_before);
	return 0;
}
