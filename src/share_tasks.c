/* SPDX-License-Identifier: MIT */
/* The other threads of this process, listed with getdents64() into a
 * buffer on the stack: opendir() would allocate. One listing can miss a
 * live thread: the kernel ends a getdents64() call early when the thread it
 * stands on exits, and the next call resumes by position, which the exits
 * have moved past threads not yet listed. So a listing counts only when
 * the threads seen alive at its end are as many as /proc/self/task's link
 * count said live; otherwise it is made again, and visit is asked again
 * about the threads it saw (it adds up what it learns). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "share_tasks.h"

#define LISTINGS 8     /* then the threads come and go too fast: in doubt */
#define CHECKED 512    /* threads checked alive; any beyond count as alive */
#define WHOLE 0
#define STOPPED 1
#define PARTIAL 2

static int list_once(pid_t self, bool (*visit)(int dir, pid_t tid, const char *name, void *arg), void *arg)
{
	char buf[4096];
	pid_t seen[CHECKED], pid = getpid();
	unsigned n_seen = 0, alive = 0;
	struct stat st;
	long n;
	int dir = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dir < 0)
		return -1;
	while ((n = syscall(SYS_getdents64, dir, buf, sizeof buf)) > 0)
		for (long off = 0; off < n;) {
			struct {
				uint64_t ino;
				int64_t off;
				unsigned short reclen;
				unsigned char type;
				char name[];
			} *d = (void *)(buf + off);
			pid_t tid;

			off += d->reclen;
			if (d->name[0] == '.')
				continue;
			tid = (pid_t)atoi(d->name);
			if (n_seen < CHECKED)
				seen[n_seen++] = tid;
			else
				alive++;
			if (tid != self && visit(dir, tid, d->name, arg)) {
				close(dir);
				return STOPPED;
			}
		}
	/* The count first: a thread that exits after it only makes the
	 * listing look partial, never whole. */
	if (n < 0 || fstat(dir, &st) < 0) {
		close(dir);
		return -1;
	}
	close(dir);
	for (unsigned i = 0; i < n_seen; i++)
		if (syscall(SYS_tgkill, (long)pid, (long)seen[i], 0L) == 0 || errno != ESRCH)
			alive++;
	return alive + 2 >= st.st_nlink ? WHOLE : PARTIAL;
}

int share_each_other_task(bool (*visit)(int dir, pid_t tid, const char *name, void *arg), void *arg)
{
	pid_t self = (pid_t)syscall(SYS_gettid);

	for (int i = 0; i < LISTINGS; i++) {
		int r = list_once(self, visit, arg);

		if (r != PARTIAL)
			return r;
	}
	return -1;
}
