/* SPDX-License-Identifier: MIT */
/* No holder of a user-space share fd can write a record into it or hold off
 * its end of file (issue 25, item 9). A holder of the same uid tries every
 * way a process has to a writer: write() on the fd itself, opening it again
 * through /proc/self/fd for writing, and opening for writing every
 * descriptor of every thread of the creator (/proc/PID/task/TID/fd: the
 * forwarding thread's table among them) that is the same object. Then:
 * - the creator reads only the signal it sent itself, never a forged one;
 * - once the creator has exited, a reader gets end of file while the holder
 *   still keeps everything it opened, in each of 20 rounds.
 * The kernel backends pass by construction (a signalfd has no writer). */
#include <dirent.h>

#include "share_util.h"

#define ROUNDS 20
#define MAX_KEPT 64

/* A record claiming "SIGTERM from pid 1, uid 0". */
static struct sigfd_siginfo forged_record(void)
{
	struct sigfd_siginfo r;

	memset(&r, 0, sizeof r);
	r.ssi_signo = SIGTERM;
	r.ssi_code = SI_USER;
	r.ssi_pid = 1;
	r.ssi_uid = 0;
	return r;
}

/* Is fd a way into share fd target: the same object, or for a pipe the
 * same pipe? */
static int same_object(int fd, const struct stat *target)
{
	struct stat st;

	return fstat(fd, &st) == 0 && st.st_dev == target->st_dev && st.st_ino == target->st_ino;
}

/* Every writer a holder can get into the share fd whose identity is
 * target, from its own fd and from the creator's threads' tables: opened
 * for writing and kept in kept[] (the number returned). */
static int open_writers(int fd, pid_t creator, const struct stat *target, int *kept)
{
	char path[320];
	int n = 0;
	DIR *tasks;
	struct dirent *t;

	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	kept[n] = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (kept[n] >= 0)
		n++;
	snprintf(path, sizeof path, "/proc/%d/task", (int)creator);
	tasks = opendir(path);
	CHECK(tasks != NULL);
	while ((t = readdir(tasks)) && n < MAX_KEPT) {
		DIR *fds;
		struct dirent *e;

		if (t->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "/proc/%d/task/%s/fd", (int)creator, t->d_name);
		fds = opendir(path);
		if (!fds)
			continue; /* the thread has gone */
		while ((e = readdir(fds)) && n < MAX_KEPT) {
			char entry[600];
			int w;

			if (e->d_name[0] == '.')
				continue;
			snprintf(entry, sizeof entry, "%s/%s", path, e->d_name);
			w = open(entry, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
			if (w < 0)
				continue;
			if (same_object(w, target))
				kept[n++] = w;
			else
				close(w);
		}
		closedir(fds);
	}
	closedir(tasks);
	return n;
}

/* A holder forked from the creator writes a forged record every way it
 * can; the creator then reads what it sent itself, and nothing else.
 * Returns the number of forged records read. */
static int forged_records_read(void)
{
	sigset_t mask = set_of(SIGUSR1);
	struct sigfd_siginfo forged = forged_record(), r;
	struct stat target;
	int fd, status, forged_read = 0;
	pid_t holder;

	sigaddset(&mask, SIGTERM);
	fd = sigfd(&mask, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(fd >= 0 && fstat(fd, &target) == 0);
	fflush(stdout);
	holder = fork();
	CHECK(holder >= 0);
	if (holder == 0) {
		int kept[MAX_KEPT], n, written = 0;

		signal(SIGPIPE, SIG_IGN);
		if (write(fd, &forged, sizeof forged) == (ssize_t)sizeof forged)
			written++;
		n = open_writers(fd, getppid(), &target, kept);
		for (int i = 0; i < n; i++)
			if (write(kept[i], &forged, sizeof forged) == (ssize_t)sizeof forged)
				written++;
		_exit(written > 100 ? 100 : written);
	}
	CHECK(waitpid(holder, &status, 0) == holder && WIFEXITED(status));
	printf("holder wrote %d forged record(s) into the share fd\n", WEXITSTATUS(status));
	CHECK(kill(getpid(), SIGUSR1) == 0);
	for (;;) {
		CHECK(poll_events(fd, POLLIN, 10000) & POLLIN);
		r = read_one(fd);
		if (r.ssi_signo == SIGUSR1 && r.ssi_pid == (uint32_t)getpid())
			break;
		forged_read++;
	}
	CHECK(close(fd) == 0);
	return forged_read;
}

/* A creator hands its share fd over and exits; the holder keeps every
 * writer it could open. Returns 1 if end of file came within 10 s. */
static int end_of_file_comes(void)
{
	sigset_t mask = set_of(SIGUSR1);
	int link[2], kept[MAX_KEPT], n, fd, eof;
	struct stat target;
	pid_t creator;

	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, link) == 0);
	fflush(stdout);
	creator = fork();
	CHECK(creator >= 0);
	if (creator == 0) {
		int mine = sigfd(&mask, SIGFD_SHARE);

		CHECK(mine >= 0);
		send_fd(link[1], mine);
		get_byte(link[1]); /* the holder has opened what it can */
		leak_check_off();
		exit(0);
	}
	fd = recv_fd(link[0]);
	CHECK(fstat(fd, &target) == 0);
	n = open_writers(fd, creator, &target, kept);
	put_byte(link[0]);
	reap_ok(creator);
	eof = (poll_events(fd, POLLIN, 10000) & (POLLIN | POLLHUP)) != 0;
	if (eof) {
		char buf[sizeof(struct sigfd_siginfo)];
		CHECK(fcntl(fd, F_SETFL, O_NONBLOCK) == 0);
		eof = read(fd, buf, sizeof buf) == 0;
	}
	for (int i = 0; i < n; i++)
		CHECK(close(kept[i]) == 0);
	CHECK(close(fd) == 0);
	close_pair(link);
	return eof;
}

int main(void)
{
	sigset_t mask = set_of(SIGUSR1);
	int forged, held_off = 0;

	CHECK(setenv("SIGFD_BACKEND", "user", 1) == 0);
	sigaddset(&mask, SIGTERM);
	block_only(&mask);
	/* The creators first, forked while this process has no forwarding
	 * thread: ThreadSanitizer aborts a child that starts a thread when
	 * its parent had one (tests/check.h). */
	for (int round = 0; round < ROUNDS && !held_off; round++)
		held_off += !end_of_file_comes();
	forged = forged_records_read();
	printf("forged records read: %d; end of file held off: %s\n", forged,
	       held_off ? "yes" : "no, in 20 of 20 rounds");
	if (forged || held_off) {
		leak_check_off();
		return 1;
	}
	return 0;
}
