/* SPDX-License-Identifier: MIT */
/* The threads of this process, listed with getdents64() into a buffer on
 * the stack (opendir() would allocate), each one's status file read for its
 * state, name and blocked mask. Names are ids in the pid namespace of the
 * /proc mounted here, which need not be the process's own: the caller knows
 * itself by /proc/thread-self, never by comparing gettid(). One listing can
 * miss a live thread: the kernel ends a getdents64() call early when the
 * thread it stands on exits, and the next call resumes by position, which
 * the exits have moved past threads not yet listed. So a listing counts
 * only when the threads seen that are still there at its end are as many
 * as /proc/self/task's link count then said; otherwise it is made again,
 * and visit is asked again about the threads it saw. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tasks.h"

#define LISTINGS 8   /* then threads come and go too fast: in doubt */
#define CHECKED 1024 /* threads checked still there (4 KB of ids); any beyond count as there */
#define WHOLE 0
#define STOPPED 1
#define PARTIAL 2
#define FORWARD_NAME "sigfd-forward"

/* What getdents64() writes: glibc and musl differ in their wrappers. */
struct dirent64_raw {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

/* fd moved to base or above when base is not 0 (the forwarding thread's
 * numbers: see share_thread.c); fd itself when that fails. */
static int above(int fd, int base)
{
	int moved;

	if (fd < 0 || base <= 0 || fd >= base)
		return fd;
	moved = fcntl(fd, F_DUPFD_CLOEXEC, base);
	if (moved < 0)
		return fd;
	close(fd);
	return moved;
}

void tasks_own_name(char *name, size_t size)
{
	char link[64];
	ssize_t n = readlink("/proc/thread-self", link, sizeof link - 1);
	const char *slash;

	link[n > 0 ? n : 0] = 0;
	slash = strrchr(link, '/');
	if (slash && strlen(slash + 1) < size) {
		strcpy(name, slash + 1);
		return;
	}
	/* Before Linux 3.17: the id in our own namespace, right when /proc
	 * is of that namespace too. */
	unsigned long tid = (unsigned long)syscall(SYS_gettid);
	char digits[TASK_NAME_SIZE];
	size_t len = 0;

	do
		digits[len++] = (char)('0' + tid % 10);
	while ((tid /= 10) && len < sizeof digits);
	for (size_t i = 0; i < len && i + 1 < size; i++)
		name[i] = digits[len - 1 - i];
	name[len < size ? len : size - 1] = 0;
}

#define SEEN_NAME 1u
#define SEEN_STATE 2u
#define SEEN_THREADS 4u
#define SEEN_BLOCKED 8u
#define SEEN_ALL 15u

/* What follows key at the start of line (len bytes, then a newline), or
 * NULL. */
static const char *value_of(const char *line, size_t len, const char *key)
{
	size_t n = strlen(key);

	return len >= n && memcmp(line, key, n) == 0 ? line + n : NULL;
}

/* One line of a status file into t: which of the lines read here it is (a
 * SEEN_ bit), 0 for any other. The line ends at a newline, where the
 * numbers' parsing stops. */
static unsigned take_line(const char *line, size_t len, struct task *t)
{
	const char *v;

	if ((v = value_of(line, len, "Name:\t"))) {
		t->forwarder = (size_t)(line + len - v) == strlen(FORWARD_NAME) &&
			       memcmp(v, FORWARD_NAME, strlen(FORWARD_NAME)) == 0;
		return SEEN_NAME;
	}
	if ((v = value_of(line, len, "State:\t")) && v < line + len) {
		t->live = *v != 'Z' && *v != 'X';
		return SEEN_STATE;
	}
	if ((v = value_of(line, len, "Threads:\t"))) {
		t->threads = strtoul(v, NULL, 10);
		return SEEN_THREADS;
	}
	if ((v = value_of(line, len, "SigBlk:\t"))) {
		t->unblocked = ~(uint64_t)strtoull(v, NULL, 16);
		return SEEN_BLOCKED;
	}
	return 0;
}

/* The status file open as fd into t: 1, 0 when the thread is gone (ESRCH,
 * or its text says so), -1 and errno when it is not Linux's. The text is
 * read in pieces: the Groups line before the signal lines can hold 65,536
 * ids, and a cut line is never parsed. A read at 0 makes the whole text
 * anew, and the pieces after it come from that text, so the lines are of
 * one moment; a short read is its end (one pread() for most threads).
 * The kernel writes State before the signal lines; a thread that let go
 * of its signal state in between (it was exiting) has them written as for
 * no thread: "Threads: 0", every set empty. Its State then says nothing
 * either: it is gone. */
static int pread_task(int fd, const char *name, struct task *t)
{
	char text[4096];
	size_t kept = 0, asked; /* kept: the start of a line the last piece cut */
	bool overlong = false;  /* in a line longer than text: not one read here */
	unsigned seen = 0;
	off_t at = 0;
	ssize_t n;

	do {
		const char *line = text, *end, *newline;

		asked = sizeof text - kept;
		while ((n = pread(fd, text + kept, asked, at)) < 0 && errno == EINTR)
			;
		if (n < 0)
			return errno == ESRCH ? 0 : -1;
		at += n;
		end = text + kept + n;
		while ((newline = memchr(line, '\n', (size_t)(end - line)))) {
			if (!overlong)
				seen |= take_line(line, (size_t)(newline - line), t);
			overlong = false;
			line = newline + 1;
		}
		kept = (size_t)(end - line);
		if (kept == sizeof text) {
			overlong = true;
			kept = 0;
		}
		memmove(text, line, kept);
	} while ((size_t)n == asked);
	if (seen != SEEN_ALL) {
		errno = ENOSYS;
		return -1;
	}
	if (t->threads == 0)
		return 0;
	t->name = name;
	return 1;
}

/* The status file of thread name into t: 1, or 0 when the thread is gone
 * (its entry vanished or its file says ESRCH), -1 and errno otherwise. */
static int read_task(int dir, const char *name, struct task *t, int base)
{
	char path[TASK_NAME_SIZE + 8];
	int fd, r, err;

	strcpy(path, name);
	strcat(path, "/status");
	fd = above(openat(dir, path, O_RDONLY | O_CLOEXEC), base);
	if (fd < 0)
		return errno == ENOENT || errno == ESRCH ? 0 : -1;
	r = pread_task(fd, name, t);
	err = errno;
	close(fd);
	errno = err;
	return r;
}

static int list_once(const char *self, int base, bool (*visit)(const struct task *t, void *arg),
		     void *arg)
{
	char buf[4096];
	uint32_t seen[CHECKED];
	unsigned n_seen = 0, alive = 0;
	struct stat st;
	long n;
	int dir = above(open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC), base), err;

	if (dir < 0)
		return -1;
	while ((n = syscall(SYS_getdents64, dir, buf, sizeof buf)) > 0)
		for (long off = 0; off < n;) {
			const struct dirent64_raw *d = (const void *)(buf + off);
			struct task t;
			int r;

			off += d->reclen;
			if (d->name[0] < '0' || d->name[0] > '9' || strlen(d->name) >= TASK_NAME_SIZE)
				continue;
			if (n_seen < CHECKED)
				seen[n_seen++] = (uint32_t)strtoul(d->name, NULL, 10);
			else
				alive++;
			if (strcmp(d->name, self) == 0)
				continue;
			if ((r = read_task(dir, d->name, &t, base)) < 0)
				goto fail;
			if (r && visit(&t, arg)) {
				close(dir);
				return STOPPED;
			}
		}
	/* The count, then which of the threads seen are still there: a
	 * thread that exits after the count only makes the listing look
	 * partial, never whole. */
	if (n < 0 || fstat(dir, &st) < 0)
		goto fail;
	for (unsigned i = 0; i < n_seen; i++) {
		char name[TASK_NAME_SIZE];
		struct stat t;

		snprintf(name, sizeof name, "%" PRIu32, seen[i]);
		if (fstatat(dir, name, &t, 0) == 0)
			alive++;
	}
	close(dir);
	return alive + 2 >= st.st_nlink ? WHOLE : PARTIAL;
fail:
	err = errno;
	close(dir);
	errno = err;
	return -1;
}

int tasks_each(bool with_self, int base, bool (*visit)(const struct task *t, void *arg), void *arg)
{
	char self[TASK_NAME_SIZE] = "";

	if (!with_self)
		tasks_own_name(self, sizeof self);
	for (int i = 0; i < LISTINGS; i++) {
		int r;

		(void)visit(NULL, arg);
		r = list_once(self, base, visit, arg);

		if (r != PARTIAL)
			return r;
	}
	errno = EAGAIN;
	return -1;
}

void tasks_watch_forget(struct task_watch *w, int base)
{
	w->base = base;
	w->dir = -1;
	w->n = 0;
	w->listed = false;
}

static void watch_close_files(struct task_watch *w)
{
	while (w->n > 0)
		close(w->fds[--w->n]);
	w->listed = false;
}

/* Open the status file of every other thread: 0 (listed, or too many
 * threads to keep: not listed), -1 and errno. A thread missed by the
 * listing shows in the first file's Threads line afterwards. */
static int watch_list(struct task_watch *w)
{
	char buf[4096];
	long n;

	watch_close_files(w);
	if (lseek(w->dir, 0, SEEK_SET) < 0)
		return -1;
	while ((n = syscall(SYS_getdents64, w->dir, buf, sizeof buf)) > 0)
		for (long off = 0; off < n;) {
			const struct dirent64_raw *d = (const void *)(buf + off);
			char path[TASK_NAME_SIZE + 8];
			int fd;

			off += d->reclen;
			if (d->name[0] < '0' || d->name[0] > '9' || strlen(d->name) >= TASK_NAME_SIZE ||
			    strcmp(d->name, w->self) == 0)
				continue;
			if (w->n == TASK_WATCH_MAX) {
				watch_close_files(w);
				return 0;
			}
			strcpy(path, d->name);
			strcat(path, "/status");
			if ((fd = above(openat(w->dir, path, O_RDONLY | O_CLOEXEC), w->base)) < 0) {
				if (errno == ENOENT || errno == ESRCH)
					continue;
				watch_close_files(w);
				return -1;
			}
			strcpy(w->names[w->n], d->name);
			w->fds[w->n++] = fd;
		}
	if (n < 0) {
		watch_close_files(w);
		return -1;
	}
	w->listed = true;
	return 0;
}

int tasks_watch_each(struct task_watch *w, bool (*visit)(const struct task *t, void *arg), void *arg)
{
	if (w->dir < 0) {
		w->dir = above(open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC), w->base);
		if (w->dir < 0)
			return -1;
		tasks_own_name(w->self, sizeof w->self);
		w->n = 0;
		w->listed = false;
	}
	for (int i = 0; i < LISTINGS; i++) {
		struct stat st;
		bool gone = false;

		if (!w->listed && watch_list(w) < 0)
			return -1;
		if (!w->listed)
			return tasks_each(false, w->base, visit, arg);
		if (w->n == 0) { /* no file to count by: every other thread has gone */
			if (fstat(w->dir, &st) < 0)
				return -1;
			if (st.st_nlink == 3)
				return 0;
			w->listed = false;
			continue;
		}
		(void)visit(NULL, arg);
		for (unsigned k = 0; k < w->n && !gone; k++) {
			struct task t;
			int r = pread_task(w->fds[k], w->names[k], &t);

			if (r < 0)
				return -1;
			/* The threads, counted as the first file was made: every
			 * other thread and this one, or a thread came or went. */
			gone = r == 0 || (k == 0 && t.threads != w->n + 1);
			if (!gone && visit(&t, arg))
				return 1;
		}
		if (!gone)
			return 0;
		w->listed = false;
	}
	errno = EAGAIN;
	return -1;
}
