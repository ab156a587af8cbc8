/* SPDX-License-Identifier: MIT */
/* The other threads of this process, from /proc/self/task (share_tasks.c):
 * the forwarding thread asks, so nothing here allocates. */
#ifndef SIGFD_SHARE_TASKS_H
#define SIGFD_SHARE_TASKS_H

#include <stdbool.h>
#include <sys/types.h>

/* Calls visit(dir, tid, name, arg) for each thread but the caller (dir is
 * /proc/self/task, name the thread's entry in it) until visit returns true.
 * 1 when visit stopped the walk, 0 when it saw every thread, -1 when the
 * threads could not all be listed (no /proc, no descriptor free, or threads
 * exiting during each of several listings). visit may be asked more than
 * once about a thread. */
int share_each_other_task(bool (*visit)(int dir, pid_t tid, const char *name, void *arg), void *arg);

#endif
