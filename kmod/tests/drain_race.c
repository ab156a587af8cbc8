/* SPDX-License-Identifier: MIT */
/* The drain races everything else: 100 times, a creator with two
 * descriptors of the same mask exits while a sender floods it, two threads
 * read one descriptor each and, every other round, a third closes the
 * second descriptor. No value is read twice, each descriptor yields
 * increasing values, both end in end of file (or EBADF once closed), and
 * the kernel reports nothing (the guest runner checks dmesg). */
#include <pthread.h>

#include "kmod_util.h"

#define ROUNDS 100
#define SENDS 300

struct reader {
	int fd;
	int got[SENDS];
	int n;
};

static void *read_all(void *arg)
{
	struct reader *rd = arg;
	struct sigfd_siginfo r[16];
	ssize_t n;

	while ((n = read(rd->fd, r, sizeof r)) > 0)
		for (int i = 0; i < n / 128 && rd->n < SENDS; i++)
			rd->got[rd->n++] = r[i].ssi_int;
	CHECK(n == 0 || (n == -1 && errno == EBADF));
	return NULL;
}

static void one_round(int round)
{
	static struct reader rd[2];
	int link[2], go[2], fds[2], seen[SENDS] = { 0 };
	pthread_t t[2];
	pid_t creator, sender;

	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, link) == 0);
	CHECK(pipe2(go, O_CLOEXEC) == 0);
	creator = fork();
	CHECK(creator >= 0);
	if (creator == 0) {
		for (int i = 0; i < 2; i++) {
			int f = raw_create(bit(SIGRTMIN), 0);
			CHECK(f >= 0);
			send_fd(link[1], f);
		}
		get_byte(go[0]);
		_exit(0);
	}
	for (int i = 0; i < 2; i++) {
		fds[i] = recv_fd(link[0]);
		rd[i].fd = fds[i];
		rd[i].n = 0;
		CHECK(pthread_create(&t[i], NULL, read_all, &rd[i]) == 0);
	}
	sender = fork();
	CHECK(sender >= 0);
	if (sender == 0) {
		for (int i = 0; i < SENDS; i++)
			if (sigqueue(creator, SIGRTMIN, int_val(i)) != 0)
				CHECK(errno == EAGAIN || errno == ESRCH);
		_exit(0);
	}
	put_byte(go[1]); /* the creator exits during the flood */
	if (round % 2)
		CHECK(close(fds[1]) == 0);
	reap_ok(sender);
	reap_ok(creator);
	for (int i = 0; i < 2; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < rd[i].n; k++) {
			int v = rd[i].got[k];
			CHECK(v >= 0 && v < SENDS && !seen[v]);
			seen[v] = 1;
			CHECK(k == 0 || v > rd[i].got[k - 1]);
		}
	CHECK(close(fds[0]) == 0);
	if (!(round % 2))
		CHECK(close(fds[1]) == 0);
	CHECK(close(go[0]) == 0 && close(go[1]) == 0);
	CHECK(close(link[0]) == 0 && close(link[1]) == 0);
}

int main(void)
{
	sigset_t rt = set_of(SIGRTMIN);
	int fds_before = fd_count();

	block_only(&rt);
	for (int round = 0; round < ROUNDS; round++)
		one_round(round);
	CHECK(fd_count() == fds_before);
	return 0;
}
