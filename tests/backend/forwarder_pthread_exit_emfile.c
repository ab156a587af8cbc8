/* SPDX-License-Identifier: MIT */
/* After main() calls pthread_exit(), a full descriptor table does not stop
 * the forwarding: the worker left fills its table but one (EMFILE for any
 * second descriptor the thread would need to look at a thread), waits long
 * enough for the thread to have looked several times whether it is alone
 * (it looks every 20 ms), sends 10 real-time signals, and the reader gets
 * all 10 while the worker still runs; then the worker frees its
 * descriptors and ends, and the process ends with status 0, end of file
 * after the records. The creator is a fresh image (see
 * share_main_pthread_exit). The user-space backend only. */
#include <pthread.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "share_util.h"

#define SIGNALS 10
/* How long the worker gives the thread to end if it is going to (it would
 * within one 20 ms look): a wait bounded by a poll() timeout. */
#define LOOKS_MS 300

static int done_fd;

static int thread_alive(pid_t tid)
{
	return syscall(SYS_tgkill, getpid(), tid, 0) == 0;
}

static void *worker(void *unused)
{
	static int extra[64];
	int n = 0, fd;
	pid_t fwd;

	(void)unused;
	WAIT_UNTIL(task_state(getpid()) == 'Z'); /* main has called pthread_exit() */
	fwd = forwarder_tid();
	CHECK(fwd > 0);
	while (n < 64 && (fd = dup(0)) >= 0)
		extra[n++] = fd;
	CHECK(n > 0 && n < 64 && errno == EMFILE);
	/* One free: the thread can open /proc/self/task, and no more. */
	CHECK(close(extra[--n]) == 0);
	for (int waited = 0; waited < LOOKS_MS / 5 && thread_alive(fwd); waited++)
		poll(NULL, 0, 5);
	for (int i = 0; i < SIGNALS; i++)
		CHECK(sigqueue(getpid(), SIGRTMIN, int_val(i)) == 0);
	get_byte(done_fd); /* the reader has them all (or gave up) */
	while (n > 0)
		close(extra[--n]);
	return NULL;
}

static int creator_image(int link, int done)
{
	sigset_t rt = set_of(SIGRTMIN);
	struct rlimit lim;
	pthread_t t;
	int fd;

	leak_check_off();
	done_fd = done;
	/* A small table, which the worker fills. */
	CHECK(getrlimit(RLIMIT_NOFILE, &lim) == 0);
	lim.rlim_cur = 32;
	CHECK(setrlimit(RLIMIT_NOFILE, &lim) == 0);
	fd = sigfd(&rt, SIGFD_SHARE);
	CHECK(fd >= 0);
	send_fd(link, fd);
	CHECK(close(fd) == 0);
	CHECK(pthread_create(&t, NULL, worker, NULL) == 0);
	put_byte(link);
	pthread_exit(NULL);
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "creator") == 0)
		return creator_image(atoi(argv[2]), atoi(argv[3]));
	if (UNDER_TSAN) {
		puts("SKIPPED: under ThreadSanitizer a process whose main thread calls pthread_exit() never ends, library or not (its own background thread lives on)");
		return 77;
	}
	sigset_t rt = set_of(SIGRTMIN);
	int link[2], done[2], got = 0;
	block_only(&rt);
	CHECK(setenv("SIGFD_BACKEND", "user", 1) == 0); /* inherited by the creator */
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, link) == 0);
	CHECK(pipe(done) == 0);
	pid_t creator = fork();
	CHECK(creator >= 0);
	if (creator == 0) {
		char a[2][16];
		snprintf(a[0], sizeof a[0], "%d", link[0]);
		snprintf(a[1], sizeof a[1], "%d", done[0]);
		CHECK(fcntl(link[0], F_SETFD, 0) == 0);
		execl(argv[0], argv[0], "creator", a[0], a[1], (char *)NULL);
		_exit(127);
	}
	int fd = recv_fd(link[1]);
	get_byte(link[1]);
	while (got < SIGNALS && (poll_events(fd, POLLIN, 10000) & POLLIN)) {
		struct sigfd_siginfo r = read_one(fd);
		CHECK(r.ssi_signo == (uint32_t)SIGRTMIN && r.ssi_int == got);
		got++;
	}
	put_byte(done[1]);
	if (got < SIGNALS) {
		fprintf(stderr, "%d of %d records read while the worker lived\n", got, SIGNALS);
		kill(creator, SIGKILL);
		waitpid(creator, NULL, 0);
		return 1;
	}
	reap_ok(creator);
	struct sigfd_siginfo r;
	CHECK(read(fd, &r, sizeof r) == 0);
	CHECK(close(fd) == 0);
	close_pair(link);
	close_pair(done);
	return 0;
}
