/* SPDX-License-Identifier: MIT */
/* Helpers for the share-mode tests: passing an fd over AF_UNIX, counting
 * this process's threads and fds, waiting for a condition with a deadline. */
#ifndef SIGFD_TEST_SHARE_UTIL_H
#define SIGFD_TEST_SHARE_UTIL_H

#include <dirent.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>

#include "check.h"

static inline void send_fd(int sock, int fd)
{
	char byte = 'f';
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
			      .msg_controllen = sizeof ctl.buf };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	memset(&ctl, 0, sizeof ctl);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof fd);
	CHECK(sendmsg(sock, &msg, 0) == 1);
}

static inline int recv_fd(int sock)
{
	char byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
			      .msg_controllen = sizeof ctl.buf };
	struct cmsghdr *c;
	int fd;

	CHECK(recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) == 1);
	c = CMSG_FIRSTHDR(&msg);
	CHECK(c && c->cmsg_type == SCM_RIGHTS);
	memcpy(&fd, CMSG_DATA(c), sizeof fd);
	return fd;
}

static inline int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	CHECK(d != NULL);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

/* Threads named sigfd-forward: the library's forwarding threads. Counted by
 * name, since sanitizers add threads of their own. The id of the last one
 * seen goes in *tid, if tid is not NULL. */
static inline int forwarders_seen(pid_t *tid)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	CHECK(d != NULL);
	while ((e = readdir(d))) {
		char path[300], comm[32] = "";
		FILE *f;
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue; /* the thread just ended */
		if (fgets(comm, sizeof comm, f) && strcmp(comm, "sigfd-forward\n") == 0) {
			n++;
			if (tid)
				*tid = (pid_t)atoi(e->d_name);
		}
		fclose(f);
	}
	closedir(d);
	return n;
}

static inline int forwarders(void)
{
	return forwarders_seen(NULL);
}

/* The forwarding thread's id, 0 if none runs. */
static inline pid_t forwarder_tid(void)
{
	pid_t tid = 0;
	forwarders_seen(&tid);
	return tid;
}

/* Sockets of the library's that no share fd explains, but those the test
 * started with: a writer (which only the forwarding thread's table should
 * hold) or the library's end of the door (which a child gives up in its
 * fork handler). A share fd is shut for writing, so a zero-length send
 * on it fails; on a writer or the door it succeeds and sends nothing.
 * Each is named if report. F_GETFD passes over closed descriptors first:
 * glibc's fstat() is fstatat(fd, "", AT_EMPTY_PATH), for which 6.1 (not
 * 6.12) copies in a path buffer: 35 us a call in the 6.1 KASAN guest. */
static inline int library_sockets(int report)
{
	int n = 0;

	for (int fd = 0; fd < LEAK_CHECK_FDS; fd++) {
		struct stat st;

		if (leak_check_open[fd] || fcntl(fd, F_GETFD) < 0 || fstat(fd, &st) < 0 ||
		    !S_ISSOCK(st.st_mode) ||
		    send(fd, "", 0, MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
			continue;
		if (report)
			fprintf(stderr, "fd %d: a socket open for writing (inode %lu)\n", fd,
				(unsigned long)st.st_ino);
		n++;
	}
	return n;
}

/* The library's end of the door: the one socket of this process that is
 * not share fd fd (and none the test made). -1 if none (the kernel
 * backends have no door); more than one fails the test. */
static inline int library_door(int fd)
{
	struct stat st;
	struct dirent *e;
	DIR *d = opendir("/proc/self/fd");
	int found = -1, n = 0;

	CHECK(d != NULL);
	while ((e = readdir(d))) {
		int num = atoi(e->d_name);
		if (e->d_name[0] == '.' || num == fd || num == dirfd(d) || fstat(num, &st) < 0)
			continue;
		if (S_ISSOCK(st.st_mode)) {
			found = num;
			n++;
		}
	}
	closedir(d);
	CHECK(n <= 1);
	return found;
}

/* Wait for the forwarding thread to end (its share fds all closed), then
 * make a call into share mode, which joins it and closes the library's end
 * of the door (sigfd(3)): a socket no sigfd, so sigfd_setmask() refuses
 * it, changing nothing. */
static inline void library_idle(void)
{
	sigset_t none;
	int sv[2];

	WAIT_UNTIL(forwarders() == 0);
	sigemptyset(&none);
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
	CHECK(sigfd_setmask(sv[0], &none) == -1 && errno == EINVAL);
	close_pair(sv);
}

/* Open fds, not counting the one opendir itself uses. */
static inline int fd_count(void)
{
	return count_entries("/proc/self/fd") - 1;
}

/* sigpending() shows only signals the calling thread blocks: asked about
 * one it does not block, the answer would be "no" whatever is pending, so
 * such a question fails the test instead. */
static inline int pending_has(int sig)
{
	sigset_t p, blocked;
	CHECK(pthread_sigmask(SIG_BLOCK, NULL, &blocked) == 0);
	CHECK(sigismember(&blocked, sig) == 1);
	CHECK(sigpending(&p) == 0);
	return sigismember(&p, sig);
}

/* Is fd a share fd of the kernel module (/dev/sigfd) or of the kernel's own
 * SFD_CREATOR (a share fd that is a signalfd: kernel/'s patch series),
 * rather than of the user-space backend? Where they differ by design,
 * tests ask this. Asked in the calling thread's table: /proc/self is the
 * main thread's, whose fd/ is gone once it has called pthread_exit(). */
static inline int fd_link_is(int fd, const char *name)
{
	char path[64], target[64];
	ssize_t n;

	snprintf(path, sizeof path, "/proc/thread-self/fd/%d", fd);
	n = readlink(path, target, sizeof target - 1);
	if (n < 0)
		return 0;
	target[n] = 0;
	return strcmp(target, name) == 0;
}

static inline int kernel_backend(int fd)
{
	return fd_link_is(fd, "anon_inode:[sigfd]") || fd_link_is(fd, "anon_inode:[signalfd-creator]");
}


/* The number at field (0-based) of the line of thread tid's status file
 * that starts with key; -1 if none. */
static inline long thread_status_field(pid_t tid, const char *key, int field)
{
	char path[64], line[512];
	long value = -1;
	FILE *f;

	snprintf(path, sizeof path, "/proc/self/task/%d/status", (int)tid);
	CHECK((f = fopen(path, "r")) != NULL);
	while (fgets(line, sizeof line, f))
		if (strncmp(line, key, strlen(key)) == 0) {
			char *p = line + strlen(key);

			for (int i = 0; i <= field; i++)
				value = strtol(p, &p, 10);
		}
	fclose(f);
	return value;
}

/* Bytes of records waiting in a share fd. */
static inline int queued_bytes(int fd)
{
	int n;
	CHECK(ioctl(fd, FIONREAD, &n) == 0);
	return n;
}

/* Reads want records into r, waiting up to 10 s for each batch. */
static inline void read_records(int fd, struct sigfd_siginfo *r, int want)
{
	for (int got = 0; got < want;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		CHECK(poll(&p, 1, 10000) == 1);
		n = read(fd, r + got, (size_t)(want - got) * sizeof r[0]);
		CHECK(n > 0 && n % (ssize_t)sizeof r[0] == 0);
		got += (int)(n / (ssize_t)sizeof r[0]);
	}
}

/* 0 if r holds values 1..n of SIGRTMIN in order; else 1, the first
 * record out of place named. */
static inline int values_in_order(const struct sigfd_siginfo *r, int n)
{
	for (int i = 0; i < n; i++)
		if (r[i].ssi_signo != (uint32_t)SIGRTMIN || r[i].ssi_int != i + 1) {
			fprintf(stderr, "record %d: signal %u, value %d; expected value %d\n", i,
				r[i].ssi_signo, r[i].ssi_int, i + 1);
			return 1;
		}
	return 0;
}

#endif
