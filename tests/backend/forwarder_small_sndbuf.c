/* SPDX-License-Identifier: MIT */
/* A share fd whose writer has the smallest send buffer the kernel allows
 * (4,608 bytes: the test's setsockopt() asks for 1 where the library asks
 * for twice wmem_max, -Wl,--wrap=setsockopt) still gets every record whole
 * and in order. The kernel cuts a stream send into pieces of sndbuf/2 - 64
 * bytes (2,240 here, 17.5 records) and a send that fills the buffer ends
 * after a piece, torn inside a record; the thread never sends more records
 * at once than the buffer surely takes, so no send is ever cut short.
 * 10 rounds: 3,000 RT signals queued, then read a record a read. With the
 * thread made to send 32 records whatever the room, a record tore in each
 * of 10 runs. */
#include <stdatomic.h>
#include <sys/resource.h>

#include "share_util.h"

#define COUNT 3000
#define ROUNDS 10

static atomic_int shrunk, sndbuf_got;

int __real_setsockopt(int fd, int level, int name, const void *value, socklen_t len);
int __wrap_setsockopt(int fd, int level, int name, const void *value, socklen_t len)
{
	static const int smallest = 1;
	socklen_t got_len = sizeof(int);
	int got, rc;

	if (level != SOL_SOCKET || name != SO_SNDBUF)
		return __real_setsockopt(fd, level, name, value, len);
	rc = __real_setsockopt(fd, level, name, &smallest, sizeof smallest);
	if (rc == 0 && getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &got, &got_len) == 0) {
		atomic_store(&sndbuf_got, got);
		atomic_fetch_add(&shrunk, 1);
	}
	return rc;
}

int main(void)
{
	static struct sigfd_siginfo recs[COUNT];
	sigset_t mask = set_of(SIGRTMIN);
	struct rlimit lim;
	int fd;

	CHECK(getrlimit(RLIMIT_SIGPENDING, &lim) == 0);
	if (lim.rlim_cur != RLIM_INFINITY && lim.rlim_cur < COUNT) {
		if (lim.rlim_max != RLIM_INFINITY && lim.rlim_max < COUNT) {
			printf("SKIPPED: RLIMIT_SIGPENDING's hard limit %lu is under %d\n",
			       (unsigned long)lim.rlim_max, COUNT);
			return 77;
		}
		lim.rlim_cur = COUNT;
		CHECK(setrlimit(RLIMIT_SIGPENDING, &lim) == 0);
	}
	block_only(&mask);
	fd = sigfd(&mask, SIGFD_SHARE);
	CHECK(fd >= 0);
	CHECK(atomic_load(&shrunk) == 1);
	printf("the writer's send buffer: %d bytes\n", atomic_load(&sndbuf_got));
	/* Small enough that a piece holds fewer records than one send may. */
	CHECK(atomic_load(&sndbuf_got) / 2 - 64 < 32 * (int)sizeof recs[0]);
	for (int round = 0; round < ROUNDS; round++) {
		for (int i = 1; i <= COUNT; i++)
			CHECK(sigqueue(getpid(), SIGRTMIN, int_val(i)) == 0);
		/* A record a read: the writer's buffer frees a little at a
		 * time, so the thread's sends meet it part full. */
		for (int i = 0; i < COUNT; i++)
			read_records(fd, &recs[i], 1);
		CHECK(values_in_order(recs, COUNT) == 0);
	}
	CHECK(queued_bytes(fd) == 0);
	CHECK(close(fd) == 0);
	return 0;
}
