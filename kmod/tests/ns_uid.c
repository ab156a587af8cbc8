/* SPDX-License-Identifier: MIT */
/* ssi_uid is seen from the reader's user namespace, both ways round, as
 * SCM_CREDENTIALS reports it. Inward: readers in child user namespaces read
 * the creator's (root's) signal: where root is mapped to 7, ssi_uid is 7;
 * where nothing is mapped, the overflow uid. Outward: the creator lives in
 * a child user namespace mapping root to 7, and a reader outside sees its
 * own signal and ours to it as uid 0. */
#include <sched.h>

#include "kmod_util.h"

static void map_root_to_7(void)
{
	int f = open("/proc/self/uid_map", O_WRONLY | O_CLOEXEC);

	CHECK(f >= 0);
	CHECK(write(f, "7 0 1\n", 6) == 6);
	CHECK(close(f) == 0);
	CHECK(getuid() == 7);
}

static long overflow_uid(void)
{
	long uid = -1;
	FILE *f = fopen("/proc/sys/kernel/overflowuid", "r");

	CHECK(f != NULL);
	CHECK(fscanf(f, "%ld", &uid) == 1);
	CHECK(fclose(f) == 0);
	return uid;
}

static void reader_inside(int mapped, long expect)
{
	int fd, ready[2];
	pid_t reader;

	fd = raw_create(bit(SIGRTMIN), 0);
	CHECK(fd >= 0 && pipe(ready) == 0);
	reader = fork();
	CHECK(reader >= 0);
	if (reader == 0) {
		struct sigfd_siginfo r;

		CHECK(unshare(CLONE_NEWUSER) == 0);
		if (mapped)
			map_root_to_7();
		put_byte(ready[1]);
		r = read_one(fd);
		CHECK(r.ssi_signo == (uint32_t)SIGRTMIN && r.ssi_int == mapped);
		if (r.ssi_uid != (uint32_t)expect) {
			fprintf(stderr, "ssi_uid %u, want %ld\n", r.ssi_uid, expect);
			_exit(1);
		}
		_exit(0);
	}
	get_byte(ready[0]);
	CHECK(sigqueue(getpid(), SIGRTMIN, int_val(mapped)) == 0);
	reap_ok(reader);
	CHECK(close(fd) == 0 && close(ready[0]) == 0 && close(ready[1]) == 0);
}

static void creator_inside(void)
{
	int link[2], go[2], fd;
	struct sigfd_siginfo r;
	pid_t creator;

	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, link) == 0);
	CHECK(pipe(go) == 0);
	creator = fork();
	CHECK(creator >= 0);
	if (creator == 0) {
		int f;

		CHECK(unshare(CLONE_NEWUSER) == 0);
		map_root_to_7();
		f = raw_create(bit(SIGUSR1) | bit(SIGRTMIN), 0);
		CHECK(f >= 0);
		CHECK(sigqueue(getpid(), SIGRTMIN, int_val(1)) == 0);
		send_fd(link[1], f);
		get_byte(go[0]);
		_exit(0);
	}
	fd = recv_fd(link[0]);
	CHECK(kill(creator, SIGUSR1) == 0);
	CHECK(queued_bytes(fd) == 2 * 128);
	r = read_one(fd);
	CHECK(r.ssi_signo == SIGUSR1 && r.ssi_uid == 0);
	r = read_one(fd);
	CHECK(r.ssi_signo == (uint32_t)SIGRTMIN && r.ssi_uid == 0 && r.ssi_pid == (uint32_t)creator);
	put_byte(go[1]);
	reap_ok(creator);
	CHECK(close(fd) == 0 && close(link[0]) == 0 && close(link[1]) == 0);
	CHECK(close(go[0]) == 0 && close(go[1]) == 0);
}

int main(void)
{
	sigset_t mask;
	int fds_before = fd_count();

	CHECK(getuid() == 0);
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGRTMIN);
	block_only(&mask);
	reader_inside(1, 7);
	reader_inside(0, overflow_uid());
	creator_inside();
	CHECK(fd_count() == fds_before);
	return 0;
}
