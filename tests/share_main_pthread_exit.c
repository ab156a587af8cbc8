/* SPDX-License-Identifier: MIT */
/* A process whose threads have all ended ends, share fd or not, as it would
 * without the library: main() calls pthread_exit() once its other thread
 * has ended, or while it still runs. The process exits with status 0, its
 * records read before end of file. */
#include <pthread.h>
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

static void run(int worker_outlives_main)
{
	int link[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, link) == 0);
	CHECK(pipe(release) == 0);
	pid_t creator = fork();
	CHECK(creator >= 0);
	if (creator == 0) {
		sigset_t usr1 = set_of(SIGUSR1);
		pthread_t t;
		int fd = sigfd(&usr1, SIGFD_SHARE);
		CHECK(fd >= 0);
		send_fd(link[0], fd);
		CHECK(kill(getpid(), SIGUSR1) == 0);
		CHECK(pthread_create(&t, NULL, worker, NULL) == 0);
		if (!worker_outlives_main) {
			put_byte(release[1]);
			CHECK(pthread_join(t, NULL) == 0);
		}
		pthread_exit(NULL);
	}
	int fd = recv_fd(link[1]);
	if (worker_outlives_main) {
		WAIT_UNTIL(leader_gone(creator));
		put_byte(release[1]);
	}
	reap_ok(creator);
	CHECK(read_one(fd).ssi_signo == SIGUSR1);
	struct sigfd_siginfo r;
	CHECK(read(fd, &r, sizeof r) == 0);
	CHECK(close(fd) == 0);
	close_pair(link);
	close_pair(release);
}

int main(void)
{
	sigset_t usr1 = set_of(SIGUSR1);
	block_only(&usr1);
	run(0);
	run(1);
	return 0;
}
