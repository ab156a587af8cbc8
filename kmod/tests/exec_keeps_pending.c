/* SPDX-License-Identifier: MIT */
/* Nothing lost at exec, nothing taken: POSIX keeps pending signals across
 * exec. A third process queues signals to the creator while nobody reads;
 * the creator execs. The new program finds them all pending, in order, and
 * the descriptor reads end of file at once; a signal sent to the new
 * program is its own too. Once with a single-threaded creator, once with a
 * creator thread that is not its process's leader (de_thread: it takes the
 * leader's pid), with one signal directed at that thread. */
#include <pthread.h>
#include <sys/syscall.h>

#include "kmod_util.h"

#define COUNT 50

static int link_[2], go[2], tids[2];

/* The new program: what was sent before the exec, then SIGRTMIN, 777. */
static int new_image(const char *up)
{
	sigset_t rt = set_of(SIGRTMIN), usr1 = set_of(SIGUSR1);
	struct timespec now = { 0, 0 };
	siginfo_t si;

	/* The system call: glibc's sigtimedwait() reports SI_TKILL as SI_USER. */
	CHECK(syscall(SYS_rt_sigtimedwait, &usr1, &si, &now, _NSIG / 8) == SIGUSR1);
	CHECK(si.si_code == SI_TKILL);
	for (int i = 0; i < COUNT; i++)
		CHECK(sigtimedwait(&rt, &si, &now) == SIGRTMIN && si.si_value.sival_int == i);
	CHECK(!pending_has(SIGRTMIN) && !pending_has(SIGUSR1));
	put_byte(atoi(up));
	CHECK(sigwaitinfo(&rt, &si) == SIGRTMIN && si.si_value.sival_int == 777);
	return 0;
}

static char self[] = "/proc/self/exe", *up_arg;

static void *create_and_exec(void *arg)
{
	int fd = raw_create(bit(SIGUSR1) | bit(SIGRTMIN), 0);
	pid_t tid = (pid_t)syscall(SYS_gettid);

	(void)arg;
	CHECK(fd >= 0);
	send_fd(link_[1], fd);
	CHECK(write(tids[1], &tid, sizeof tid) == sizeof tid);
	get_byte(go[0]);
	execl(self, self, "image", up_arg, (char *)NULL);
	_exit(127);
}

static void round_trip(int threaded)
{
	int up[2], fd;
	struct sigfd_siginfo r;
	char up_fd[16];
	pid_t creator, sender, tid;

	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, link_) == 0);
	CHECK(pipe2(go, O_CLOEXEC) == 0 && pipe2(tids, O_CLOEXEC) == 0 && pipe(up) == 0);
	snprintf(up_fd, sizeof up_fd, "%d", up[1]);
	up_arg = up_fd;
	creator = fork();
	CHECK(creator >= 0);
	if (creator == 0) {
		pthread_t t;

		if (!threaded)
			create_and_exec(NULL);
		CHECK(pthread_create(&t, NULL, create_and_exec, NULL) == 0);
		for (;;)
			pause(); /* killed by the other thread's exec */
	}
	CHECK(close(up[1]) == 0);
	fd = recv_fd(link_[0]);
	CHECK(read(tids[0], &tid, sizeof tid) == sizeof tid);
	CHECK(threaded ? tid != creator : tid == creator);

	sender = fork();
	CHECK(sender >= 0);
	if (sender == 0) {
		for (int i = 0; i < COUNT; i++)
			CHECK(sigqueue(creator, SIGRTMIN, int_val(i)) == 0);
		CHECK(syscall(SYS_tgkill, creator, tid, SIGUSR1) == 0);
		_exit(0);
	}
	reap_ok(sender);
	CHECK(queued_bytes(fd) == (COUNT + 1) * 128);
	put_byte(go[1]);
	get_byte(up[0]); /* the new program runs, and took them all */
	CHECK(poll_events(fd, POLLIN, 0) == (POLLIN | POLLHUP));
	CHECK(read(fd, &r, sizeof r) == 0);
	CHECK(sigqueue(creator, SIGRTMIN, int_val(777)) == 0);
	reap_ok(creator);
	CHECK(read(fd, &r, sizeof r) == 0);
	CHECK(close(fd) == 0 && close(up[0]) == 0);
	CHECK(close(go[0]) == 0 && close(go[1]) == 0 && close(tids[0]) == 0 && close(tids[1]) == 0);
	CHECK(close(link_[0]) == 0 && close(link_[1]) == 0);
}

int main(int argc, char **argv)
{
	sigset_t mask;
	int fds_before;

	if (argc == 3 && strcmp(argv[1], "image") == 0)
		return new_image(argv[2]);
	fds_before = fd_count();
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGRTMIN);
	block_only(&mask);
	round_trip(0);
	round_trip(1);
	CHECK(fd_count() == fds_before);
	return 0;
}
