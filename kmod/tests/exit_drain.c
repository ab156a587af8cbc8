/* SPDX-License-Identifier: MIT */
/* Nothing lost at exit. A third process queues signals to the creator
 * while nobody reads; the creator exits. Readers that start only after it
 * has been reaped (another process first, then us) get every record, in
 * the order a read would have taken them (lowest signal first, real-time
 * ones in the order sent), with the sender's pid, then end of file. A
 * signal sent to the zombie, after the exit, never shows up. */
#include "kmod_util.h"

#define COUNT 200

int main(void)
{
	sigset_t mask;
	int fds_before = fd_count(), link[2], go[2], fd;
	struct sigfd_siginfo r[64];
	pid_t creator, sender, late;
	siginfo_t si;
	int next = 0;

	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGRTMIN);
	block_only(&mask);
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, link) == 0);
	CHECK(pipe(go) == 0);
	creator = fork();
	CHECK(creator >= 0);
	if (creator == 0) {
		fd = raw_create(bit(SIGUSR1) | bit(SIGTERM) | bit(SIGRTMIN), 0);
		CHECK(fd >= 0);
		send_fd(link[1], fd);
		get_byte(go[0]);
		exit(0);
	}
	fd = recv_fd(link[0]);
	assert_kernel_fd(fd);

	sender = fork();
	CHECK(sender >= 0);
	if (sender == 0) {
		for (int i = 0; i < COUNT; i++)
			CHECK(sigqueue(creator, SIGRTMIN, int_val(i)) == 0);
		CHECK(kill(creator, SIGTERM) == 0);
		CHECK(kill(creator, SIGUSR1) == 0);
		_exit(0);
	}
	reap_ok(sender);
	CHECK(queued_bytes(fd) == (COUNT + 2) * 128);
	put_byte(go[1]);
	CHECK(waitid(P_PID, creator, &si, WEXITED | WNOWAIT) == 0);
	CHECK(sigqueue(creator, SIGRTMIN, int_val(-1)) == 0); /* after the point */
	reap_ok(creator);

	CHECK(poll_events(fd, POLLIN, 0) == (POLLIN | POLLHUP));
	CHECK(queued_bytes(fd) == (COUNT + 2) * 128);
	late = fork();
	CHECK(late >= 0);
	if (late == 0) {
		r[0] = read_one(fd);
		CHECK(r[0].ssi_signo == SIGUSR1 && r[0].ssi_code == SI_USER);
		CHECK(r[0].ssi_pid == (uint32_t)sender && r[0].ssi_uid == getuid());
		r[0] = read_one(fd);
		CHECK(r[0].ssi_signo == SIGTERM && r[0].ssi_pid == (uint32_t)sender);
		_exit(0);
	}
	reap_ok(late);
	while (next < COUNT) {
		ssize_t n = read(fd, r, sizeof r);
		CHECK(n > 0 && n % 128 == 0);
		for (int i = 0; i < n / 128; i++, next++) {
			CHECK(r[i].ssi_signo == (uint32_t)SIGRTMIN && r[i].ssi_code == SI_QUEUE);
			CHECK(r[i].ssi_int == next && r[i].ssi_pid == (uint32_t)sender);
		}
	}
	CHECK(read(fd, r, sizeof r) == 0);
	CHECK(read(fd, r, sizeof r) == 0);
	CHECK(queued_bytes(fd) == 0);
	CHECK(poll_events(fd, POLLIN, 0) == (POLLIN | POLLHUP));
	CHECK(close(fd) == 0 && close(go[0]) == 0 && close(go[1]) == 0);
	CHECK(close(link[0]) == 0 && close(link[1]) == 0);
	CHECK(fd_count() == fds_before);
	return 0;
}
