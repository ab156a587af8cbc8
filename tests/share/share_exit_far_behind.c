/* SPDX-License-Identifier: MIT */
/* exit() with a reader far behind: what was pending for the creator at
 * exit goes to the descriptor, as far as the transport can be made to hold
 * it. 600 queued values (more than a default pipe's 512 records) all
 * arrive, in order, then end of file. Then 9,000: the kernel backends hand
 * every one over; the user-space backend as many as its writer holds once
 * its send buffer is grown to twice /proc/sys/net/core/wmem_max (sigfd(3)
 * BUGS), the first ones, in order, and the figure is printed. Where
 * RLIMIT_SIGPENDING cannot be raised that far, as many as it lets this
 * user queue. */
#include "share_util.h"

static long wmem_max(void)
{
	long bytes = 0;
	FILE *f = fopen("/proc/sys/net/core/wmem_max", "r");

	CHECK(f != NULL);
	CHECK(fscanf(f, "%ld", &bytes) == 1);
	fclose(f);
	return bytes;
}

/* A creator queues count values to a share fd nobody reads and exits; the
 * number of records read before end of file. */
static long handed_over(int count, int *kernel)
{
	sigset_t mask = set_of(SIGRTMIN);
	int link[2];
	pid_t creator;
	long got = 0;
	struct sigfd_siginfo r[64];
	ssize_t n;

	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, link) == 0);
	creator = fork();
	CHECK(creator >= 0);
	if (creator == 0) {
		int fd = sigfd(&mask, SIGFD_SHARE);
		CHECK(fd >= 0);
		for (int i = 0; i < count; i++)
			CHECK(sigqueue(getpid(), SIGRTMIN, int_val(i)) == 0);
		send_fd(link[1], fd);
		exit(0);
	}
	int fd = recv_fd(link[0]);
	*kernel = kernel_backend(fd);
	reap_ok(creator);
	while ((n = read(fd, r, sizeof r)) > 0) {
		CHECK(n % 128 == 0);
		for (ssize_t i = 0; i < n / 128; i++, got++)
			CHECK(r[i].ssi_signo == (uint32_t)SIGRTMIN && r[i].ssi_int == got);
	}
	CHECK(n == 0);
	CHECK(close(fd) == 0);
	close_pair(link);
	return got;
}

/* How many signals this user may queue: raised to 9,100 where we may (root,
 * or a hard limit that high), else what the limit leaves, less a margin for
 * what other processes of the user hold (a QEMU guest's limit is under
 * 2,000). */
static long queue_room(void)
{
	struct rlimit rl;

	CHECK(getrlimit(RLIMIT_SIGPENDING, &rl) == 0);
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < 9100) {
		struct rlimit want = { 9100, rl.rlim_max };

		if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < 9100)
			want.rlim_max = 9100;
		if (setrlimit(RLIMIT_SIGPENDING, &want) == 0 ||
		    (want.rlim_cur = rl.rlim_max, setrlimit(RLIMIT_SIGPENDING, &want) == 0))
			CHECK(getrlimit(RLIMIT_SIGPENDING, &rl) == 0);
	}
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= 9100)
		return 9000;
	return (long)rl.rlim_cur > 700 ? (long)rl.rlim_cur - 100 : 600;
}

int main(void)
{
	sigset_t mask = set_of(SIGRTMIN);
	int kernel;
	long got, wmem = wmem_max(), many = queue_room();

	block_only(&mask);
	got = handed_over(600, &kernel);
	if (got != 600) {
		fprintf(stderr, "600 pending at exit, %ld read before end of file\n", got);
		leak_check_off();
		return 1;
	}
	got = handed_over((int)many, &kernel);
	printf("%ld pending at exit: %ld read before end of file (%s; wmem_max %ld)\n", many, got,
	       kernel ? "kernel backend" : "user-space backend", wmem);
	/* What a writer holds is charged per send, not per byte (at most 1 KiB
	 * a record): at least 600, as above; every one when the grown buffer
	 * holds that many at 1 KiB each. */
	CHECK(kernel || 2 * wmem / 1024 >= many ? got == many : got >= 600 && got <= many);
	return 0;
}
