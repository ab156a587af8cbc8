/* SPDX-License-Identifier: MIT */
/* The creator execs in the middle of a flood of queued real-time values.
 * Every value is read from the share fd before its end of file, or is still
 * pending in the new image, in order and never twice. The one thing user
 * space cannot prevent: the exec kills the forwarding thread between taking
 * a batch and writing it, and that batch (at most 32 values, contiguous) is
 * lost. The test allows that, and prints how often it happened. */
#include <stdlib.h>
#include <sys/socket.h>

#include "share_util.h"

#define ROUNDS 10
#define MAX_COUNT 3000
#define BATCH 32

/* The new image: once the flood is over, report what is pending. */
static int image(int results, int done)
{
	sigset_t rt = set_of(SIGRTMIN);
	siginfo_t si;
	struct timespec now = { 0, 0 };

	get_byte(done);
	while (sigtimedwait(&rt, &si, &now) == SIGRTMIN)
		CHECK(write(results, &si.si_value.sival_int, sizeof(int)) == (ssize_t)sizeof(int));
	int end = -1;
	CHECK(write(results, &end, sizeof end) == (ssize_t)sizeof end);
	return 0;
}

/* Values per round: fewer where RLIMIT_SIGPENDING is small (a guest), since
 * what the new image gets waits in its queue until the flood is over. */
static int COUNT = MAX_COUNT;

static int round_lost(const char *self)
{
	int link[2], go[2], results[2], done[2];
	static char seen[MAX_COUNT];
	int got = 0, last = -1, lost = 0;

	memset(seen, 0, sizeof seen);
	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, link) == 0);
	CHECK(pipe(go) == 0 && pipe(results) == 0 && pipe(done) == 0);
	pid_t creator = fork();
	CHECK(creator >= 0);
	if (creator == 0) {
		sigset_t rt = set_of(SIGRTMIN);
		int fd = sigfd(&rt, SIGFD_SHARE);
		char rfd[16], dfd[16];
		CHECK(fd >= 0);
		send_fd(link[0], fd);
		CHECK(close(fd) == 0);
		get_byte(go[0]);
		snprintf(rfd, sizeof rfd, "%d", results[1]);
		snprintf(dfd, sizeof dfd, "%d", done[0]);
		execl(self, self, "image", rfd, dfd, (char *)NULL);
		_exit(127);
	}
	int fd = recv_fd(link[1]);
	pid_t sender = fork();
	CHECK(sender >= 0);
	if (sender == 0) {
		for (int i = 0; i < COUNT; i++)
			while (sigqueue(creator, SIGRTMIN, int_val(i)) < 0)
				CHECK(errno == EAGAIN);
		_exit(0);
	}
	/* Exec once a tenth of the flood has been read: mid-flood. */
	struct sigfd_siginfo r;
	ssize_t n;
	while ((n = read(fd, &r, sizeof r)) == (ssize_t)sizeof r) {
		CHECK(r.ssi_int > last && r.ssi_int < COUNT);
		last = r.ssi_int;
		seen[last] = 1;
		if (++got == COUNT / 10)
			put_byte(go[1]);
	}
	CHECK(n == 0);
	reap_ok(sender);
	put_byte(done[1]);
	int v, image_last = -1;
	while (read(results[0], &v, sizeof v) == (ssize_t)sizeof v && v >= 0) {
		CHECK(v > image_last && v > last && v < COUNT && !seen[v]);
		image_last = v;
		seen[v] = 1;
	}
	reap_ok(creator);
	for (int i = 0; i < COUNT; i++)
		if (!seen[i]) {
			CHECK(i > last && i <= last + BATCH); /* the batch in flight */
			lost++;
		}
	CHECK(close(fd) == 0);
	close_pair(link);
	close_pair(go);
	close_pair(results);
	close_pair(done);
	return lost;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "image") == 0)
		return image(atoi(argv[2]), atoi(argv[3]));
	if (under_valgrind()) {
		puts("SKIPPED: valgrind takes queued signals from the kernel itself and drops what it holds at exec");
		return 77;
	}
	sigset_t rt = set_of(SIGRTMIN);
	block_only(&rt);
	struct rlimit pending;
	CHECK(getrlimit(RLIMIT_SIGPENDING, &pending) == 0);
	if (pending.rlim_cur != RLIM_INFINITY && pending.rlim_cur / 2 < MAX_COUNT)
		COUNT = (int)(pending.rlim_cur / 2);
	int rounds_lost = 0, values_lost = 0;
	for (int i = 0; i < ROUNDS; i++) {
		int lost = round_lost(argv[0]);
		rounds_lost += lost > 0;
		values_lost += lost;
	}
	printf("exec mid-flood: %d of %d rounds lost a batch (%d values)\n", rounds_lost, ROUNDS,
	       values_lost);
	return 0;
}
