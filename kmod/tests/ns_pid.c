/* SPDX-License-Identifier: MIT */
/* ssi_pid is seen from the reader's pid namespace, both ways round.
 * Inward: a reader that is pid 1 of a child namespace reads the outer
 * creator's descriptor; a SIGCHLD from the creator's child that lives in
 * the reader's namespace names it by its pid there (2), a signal from the
 * creator itself, invisible there, says 0. Outward: the creator is pid 1
 * of a child namespace and we read from outside: its signal to itself and
 * one from its child (pid 2 there) carry their pids as we see them. */
#include <sched.h>

#include "kmod_util.h"

/* Does /proc say that outer pid @pid is @inner in its own namespace? */
static int nspid_is(pid_t pid, pid_t inner)
{
	char path[64], line[128], want[64];
	int found = 0;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	snprintf(want, sizeof want, "NSpid:\t%d\t%d\n", (int)pid, (int)inner);
	f = fopen(path, "r");
	CHECK(f != NULL);
	while (fgets(line, sizeof line, f))
		if (strcmp(line, want) == 0)
			found = 1;
	CHECK(fclose(f) == 0);
	return found;
}

static void reader_inside(void)
{
	int fd, go[2], done[2];
	pid_t reader, sibling;
	siginfo_t si;
	ssize_t n;
	char c;

	fd = raw_create(bit(SIGCHLD) | bit(SIGRTMIN), 0);
	CHECK(fd >= 0);
	CHECK(pipe(go) == 0 && pipe(done) == 0);
	CHECK(unshare(CLONE_NEWPID) == 0);
	reader = fork(); /* pid 1 of the new namespace */
	CHECK(reader >= 0);
	if (reader == 0) {
		struct sigfd_siginfo r;

		CHECK(getpid() == 1);
		get_byte(go[0]);
		r = read_one(fd);
		CHECK(r.ssi_signo == SIGCHLD && r.ssi_code == CLD_EXITED);
		CHECK(r.ssi_pid == 2 && r.ssi_status == 3);
		r = read_one(fd);
		CHECK(r.ssi_signo == (uint32_t)SIGRTMIN && r.ssi_int == 9);
		CHECK(r.ssi_pid == 0); /* the creator is not in this namespace */
		put_byte(done[1]);
		_exit(0);
	}
	sibling = fork(); /* pid 2 there */
	CHECK(sibling >= 0);
	if (sibling == 0)
		_exit(3);
	CHECK(waitid(P_PID, sibling, &si, WEXITED | WNOWAIT) == 0); /* a zombie: its pid lives */
	WAIT_UNTIL(pending_has(SIGCHLD));
	CHECK(sigqueue(getpid(), SIGRTMIN, int_val(9)) == 0);
	CHECK(close(done[1]) == 0); /* a reader that fails is end of file */
	put_byte(go[1]);
	n = read(done[0], &c, 1);
	/* The namespace's init cannot finish exiting before the zombie,
	 * whose parent we are, is reaped. */
	CHECK(waitpid(sibling, NULL, 0) == sibling);
	reap_ok(reader);
	CHECK(n == 1);
	CHECK(close(fd) == 0 && close(go[0]) == 0 && close(go[1]) == 0 && close(done[0]) == 0);
}

static void creator_inside(void)
{
	int link[2], go[2], sent[2], pids[2], fd;
	struct sigfd_siginfo r;
	pid_t middle, creator;

	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, link) == 0);
	CHECK(pipe(go) == 0 && pipe(sent) == 0 && pipe(pids) == 0);
	middle = fork();
	CHECK(middle >= 0);
	if (middle == 0) {
		CHECK(unshare(CLONE_NEWPID) == 0);
		creator = fork();
		CHECK(creator >= 0);
		if (creator == 0) {
			pid_t child;
			int f = raw_create(bit(SIGUSR1) | bit(SIGRTMIN), 0);

			CHECK(f >= 0 && getpid() == 1);
			CHECK(sigqueue(1, SIGRTMIN, int_val(7)) == 0);
			child = fork(); /* pid 2 here */
			CHECK(child >= 0);
			if (child == 0) {
				CHECK(kill(1, SIGUSR1) == 0);
				put_byte(sent[1]);
				get_byte(go[0]);
				_exit(0);
			}
			get_byte(sent[0]);
			send_fd(link[1], f);
			get_byte(go[0]);
			reap_ok(child);
			_exit(0);
		}
		CHECK(write(pids[1], &creator, sizeof creator) == sizeof creator);
		reap_ok(creator);
		_exit(0);
	}
	CHECK(read(pids[0], &creator, sizeof creator) == sizeof creator);
	fd = recv_fd(link[0]);
	CHECK(queued_bytes(fd) == 2 * 128);
	r = read_one(fd);
	CHECK(r.ssi_signo == SIGUSR1 && r.ssi_code == SI_USER);
	CHECK(r.ssi_pid != 2 && r.ssi_pid != 0 && nspid_is((pid_t)r.ssi_pid, 2));
	r = read_one(fd);
	CHECK(r.ssi_signo == (uint32_t)SIGRTMIN && r.ssi_int == 7);
	CHECK(r.ssi_pid == (uint32_t)creator && nspid_is(creator, 1));
	put_byte(go[1]);
	put_byte(go[1]);
	reap_ok(middle);
	CHECK(close(fd) == 0 && close(link[0]) == 0 && close(link[1]) == 0);
	CHECK(close(go[0]) == 0 && close(go[1]) == 0 && close(sent[0]) == 0 && close(sent[1]) == 0);
	CHECK(close(pids[0]) == 0 && close(pids[1]) == 0);
}

int main(void)
{
	sigset_t mask;
	int fds_before = fd_count();
	pid_t inward;

	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGRTMIN);
	block_only(&mask);
	inward = fork(); /* unshare() changes its children's namespace for good */
	CHECK(inward >= 0);
	if (inward == 0) {
		reader_inside();
		_exit(0);
	}
	reap_ok(inward);
	creator_inside();
	CHECK(fd_count() == fds_before);
	return 0;
}
