/* SPDX-License-Identifier: MIT */
/* A thread's status file lists the process's supplementary groups before
 * its signal lines, and a process may have 65,536 of them: the SigBlk line
 * can sit anywhere past the first 4 KB. The walk over the threads must read
 * each thread's mask whole wherever it falls, or a thread that blocks a
 * signal looks as if it left it unblocked: sigfd_unblocked_threads()
 * counts it, or fails with ENOSYS, and the forwarding thread gives the
 * signal back to the kernel, where every thread blocks it, so it is never
 * read (issue 28's review). The keeper thread blocks SIGUSR1 and leaves
 * SIGUSR2 unblocked; this one blocks both. With the Groups line grown a
 * byte at a time so that the text's 4,096th byte falls on every byte from
 * the Groups line to the end of SigBlk, and then with 65,536 groups, each
 * thread's mask must read right, and SIGUSR1 sent to the process must be
 * read from a share fd of the user-space backend. Root only (setgroups). */
#include <grp.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/syscall.h>

#include "share_util.h"

#define WIDE_GID 100000000u /* nine digits and a separator: 10 bytes a group */
#define GROUPS_MAX 65536
#define MARGIN 32

static gid_t gids[GROUPS_MAX];
/* To the keeper: a byte asks for an answer on keeper_back, end of file
 * ends it. */
static int keeper_ping[2], keeper_back[2];
static atomic_int keeper_tid;

static void *keeper(void *unused)
{
	sigset_t usr2 = set_of(SIGUSR2);

	(void)unused;
	atomic_store(&keeper_tid, (int)syscall(SYS_gettid));
	CHECK(pthread_sigmask(SIG_UNBLOCK, &usr2, NULL) == 0);
	for (char c; read(keeper_ping[0], &c, 1) == 1;)
		put_byte(keeper_back[1]);
	return NULL;
}

/* Offset in this thread's status text of the start of the line key. */
static long status_offset(const char *text, const char *key)
{
	const char *at = strstr(text, key);

	CHECK(at != NULL);
	return at - text;
}

/* Set n wide groups and one of digits digits (1-10). */
static void set_groups(int n, int digits)
{
	gid_t narrow = 7;

	for (int d = 1; d < digits; d++)
		narrow = narrow * 10 + 1;
	gids[0] = digits == 10 ? 2000000000u : narrow;
	for (int i = 1; i <= n; i++)
		gids[i] = WIDE_GID + (gid_t)i;
	CHECK(setgroups((size_t)n + 1, gids) == 0);
	/* setgroups() returns while the other threads may still be in the
	 * handler that set their ids, every signal blocked (musl); an
	 * answer from the keeper says it is back to its own mask. */
	put_byte(keeper_ping[1]);
	get_byte(keeper_back[0]);
}

static void check_masks(int share_fd, pid_t keeper_id)
{
	sigset_t usr1 = set_of(SIGUSR1), usr2 = set_of(SIGUSR2);
	pid_t tids[4];

	CHECK(sigfd_unblocked_threads(&usr1, tids, 4) == 0);
	/* What /proc shows of a thread's mask can be wider for a moment, never
	 * narrower: valgrind blocks every signal of a thread outside its
	 * system calls. A misread mask stays misread at every look. */
	WAIT_UNTIL(sigfd_unblocked_threads(&usr2, tids, 4) == 1 && tids[0] == keeper_id);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(poll_events(share_fd, POLLIN, 10000) == POLLIN);
	CHECK(read_one(share_fd).ssi_signo == SIGUSR1);
}

int main(void)
{
	sigset_t both, usr1 = set_of(SIGUSR1);
	char text[8192];
	pthread_t thread;
	pid_t keeper_id;
	long groups_at, blocked_end;
	ssize_t n;
	int fd, status;

	sigemptyset(&both);
	sigaddset(&both, SIGUSR1);
	sigaddset(&both, SIGUSR2);
	block_only(&both);
	CHECK(setenv("SIGFD_BACKEND", "user", 1) == 0);
	if (geteuid() != 0) {
		puts("SKIPPED: needs root, to set 65,536 supplementary groups");
		return 77;
	}
	CHECK(pipe(keeper_ping) == 0 && pipe(keeper_back) == 0);
	CHECK(pthread_create(&thread, NULL, keeper, NULL) == 0);
	WAIT_UNTIL((keeper_id = (pid_t)atomic_load(&keeper_tid)) != 0);
	set_groups(0, 1);
	fd = sigfd(&usr1, SIGFD_SHARE);
	CHECK(fd >= 0);
	check_masks(fd, keeper_id);

	/* Where the lines fall with one group of one digit. */
	CHECK((status = open("/proc/thread-self/status", O_RDONLY | O_CLOEXEC)) >= 0);
	CHECK((n = read(status, text, sizeof text - 1)) > 0 && close(status) == 0);
	text[n] = 0;
	groups_at = status_offset(text, "\nGroups:");
	blocked_end = status_offset(text, "\nSigBlk:") + (long)strlen("\nSigBlk:\t0000000000000000");
	CHECK(blocked_end < 4096);

	/* Each step adds a byte before SigBlk: 10 a wide group, 1 a digit.
	 * The margins cover the threads' texts differing by a few bytes. */
	for (long grown = 4096 - blocked_end - MARGIN; grown <= 4096 - groups_at + MARGIN; grown++) {
		set_groups((int)(grown / 10), (int)(grown % 10) + 1);
		check_masks(fd, keeper_id);
	}
	set_groups(GROUPS_MAX - 1, 10);
	check_masks(fd, keeper_id);

	set_groups(0, 1);
	CHECK(close(keeper_ping[1]) == 0);
	CHECK(pthread_join(thread, NULL) == 0);
	CHECK(close(keeper_ping[0]) == 0);
	close_pair(keeper_back);
	CHECK(close(fd) == 0);
	return 0;
}
