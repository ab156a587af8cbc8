/* SPDX-License-Identifier: MIT */
/* The other threads of this process, listed with getdents64() into a
 * buffer on the stack: opendir() would allocate. */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "share_tasks.h"

int share_each_other_task(bool (*visit)(int dir, pid_t tid, const char *name, void *arg), void *arg)
{
	char buf[2048];
	long n;
	pid_t self = (pid_t)syscall(SYS_gettid);
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
			if (d->name[0] == '.' || (tid = (pid_t)atoi(d->name)) == self)
				continue;
			if (visit(dir, tid, d->name, arg)) {
				close(dir);
				return 1;
			}
		}
	close(dir);
	return n == 0 ? 0 : -1;
}
