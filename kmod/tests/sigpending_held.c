/* SPDX-License-Identifier: MIT */
/* Issue 16, M-3: records held by descriptors of dead creators stay within
 * RLIMIT_SIGPENDING. With the limit at LIMIT, CREATORS creators in turn
 * have SIGRTMIN queued to them until sigqueue() fails with EAGAIN, then
 * exit; we hold every descriptor. The handed-over signals keep their
 * charge, so all of them together hold at most LIMIT records, and
 * /proc/self/status's SigQ counts exactly those (before issue 16 each
 * creator's exit dropped the charge: about LIMIT records per creator).
 * Reading a record drops its charge, and so does closing the descriptors:
 * SigQ is back where it started. */
#include <sys/resource.h>

#include "kmod_util.h"
#include "creator_util.h"

#define LIMIT 1000
#define CREATORS 100

/* A creator that gets SIGRTMIN until the limit says no, then exits; its
 * descriptor in *fd. The number queued. */
static int fill_and_end(int *fd)
{
	int go, queued = 0;
	pid_t creator = fork_creator(bit(SIGRTMIN), SIGFD_KF_NONBLOCK, fd, &go);

	while (sigqueue(creator, SIGRTMIN, int_val(queued)) == 0)
		queued++;
	CHECK(errno == EAGAIN);
	put_byte(go);
	reap_ok(creator);
	CHECK(poll_events(*fd, POLLIN, 0) & POLLHUP);
	CHECK(close(go) == 0);
	return queued;
}

int main(void)
{
	struct rlimit lim = { LIMIT, LIMIT };
	int fds_before = fd_count(), fds[CREATORS], queued = 0, held = 0;
	long base;
	sigset_t rt = set_of(SIGRTMIN);
	struct sigfd_siginfo r;

	block_only(&rt);
	CHECK(setrlimit(RLIMIT_SIGPENDING, &lim) == 0);
	base = sigq_used();
	for (int i = 0; i < CREATORS; i++) {
		queued += fill_and_end(&fds[i]);
		held += queued_bytes(fds[i]) / 128;
	}
	printf("sigpending_held: %d descriptors of dead creators hold %d records, RLIMIT_SIGPENDING %d "
	       "(SigQ %ld, %ld before); %d queued in all\n",
	       CREATORS, held, LIMIT, sigq_used(), base, queued);
	CHECK(held == queued);
	CHECK(held <= LIMIT);
	CHECK(sigq_used() == base + held);
	/* The first descriptor's records, in order; each read drops a charge. */
	for (int i = 0; queued_bytes(fds[0]); i++) {
		r = read_one(fds[0]);
		CHECK(r.ssi_signo == (uint32_t)SIGRTMIN && r.ssi_int == i);
		CHECK(sigq_used() == base + held - i - 1);
	}
	CHECK(read(fds[0], &r, sizeof r) == 0);
	for (int i = 0; i < CREATORS; i++)
		CHECK(close(fds[i]) == 0);
	CHECK(sigq_used() == base);
	CHECK(fd_count() == fds_before);
	return 0;
}
