/* SPDX-License-Identifier: MIT */
/* A process whose threads have all ended ends, share fd or not, as it would
 * without the library: main() calls pthread_exit() once its other thread
 * has ended, or while it still runs. The process exits with status 0, its
 * records read before end of file (on a kernel backend, none when its other
 * thread outlived main(): see run()). The creator is a fresh image (forked,
 * then exec'd): musl 1.2.3 hangs in the pthread_exit() of a forked child's
 * main thread, library or not. */
#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "share_util.h"

static int release[2];

static void *worker(void *unused)
{
	(void)unused;
	get_byte(release[0]);
	return NULL;
}

/* Is the main thread of pid gone (a zombie leader)? */
static int leader_gone(pid_t pid)
{
	char path[64], stat[256];
	snprintf(path, sizeof path, "/proc/%d/task/%d/stat", (int)pid, (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 1;
	size_t n = fread(stat, 1, sizeof stat - 1, f);
	fclose(f);
	stat[n] = 0;
	char *end = strrchr(stat, ')');
	return end && (end[2] == 'Z' || end[2] == 'X');
}

static int creator_image(int worker_outlives_main, int link, int release_read, int release_write)
{
	sigset_t usr1 = set_of(SIGUSR1);
	pthread_t t;
	int fd = sigfd(&usr1, SIGFD_SHARE);

	leak_check_off();
	release[0] = release_read;
	release[1] = release_write;
	CHECK(fd >= 0);
	send_fd(link, fd);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(pthread_create(&t, NULL, worker, NULL) == 0);
	if (!worker_outlives_main) {
		put_byte(release[1]);
		CHECK(pthread_join(t, NULL) == 0);
	}
	pthread_exit(NULL);
}

static void run(const char *self, int worker_outlives_main)
{
	int link[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, link) == 0);
	CHECK(pipe(release) == 0);
	pid_t creator = fork();
	CHECK(creator >= 0);
	if (creator == 0) {
		char args[4][16];
		snprintf(args[0], sizeof args[0], "%d", worker_outlives_main);
		snprintf(args[1], sizeof args[1], "%d", link[0]);
		snprintf(args[2], sizeof args[2], "%d", release[0]);
		snprintf(args[3], sizeof args[3], "%d", release[1]);
		execl(self, self, "creator", args[0], args[1], args[2], args[3], (char *)NULL);
		_exit(127);
	}
	int fd = recv_fd(link[1]);
	if (worker_outlives_main) {
		WAIT_UNTIL(leader_gone(creator));
		put_byte(release[1]);
	}
	reap_ok(creator);
	/* The kernel backends keep issue 16's contract at the creator's end:
	 * a creator thread that ends while a sibling lives on leaves its
	 * process's signals (this kill()) to the sibling, and they end with
	 * the process. */
	if (!(worker_outlives_main && kernel_backend(fd)))
		CHECK(read_one(fd).ssi_signo == SIGUSR1);
	struct sigfd_siginfo r;
	CHECK(read(fd, &r, sizeof r) == 0);
	CHECK(close(fd) == 0);
	close_pair(link);
	close_pair(release);
}

int main(int argc, char **argv)
{
	if (argc == 6 && strcmp(argv[1], "creator") == 0)
		return creator_image(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), atoi(argv[5]));
	if (UNDER_TSAN) {
		puts("SKIPPED: under ThreadSanitizer a process whose main thread calls pthread_exit() never ends, library or not (its own background thread lives on)");
		return 77;
	}
	sigset_t usr1 = set_of(SIGUSR1);
	block_only(&usr1);
	run(argv[0], 0);
	run(argv[0], 1);
	return 0;
}
