/* SPDX-License-Identifier: MIT */
/* The threads of this process, from /proc/self/task (tasks.c): what each
 * leaves unblocked and whether it still lives. One walker for the
 * forwarding thread (share_usual.c, share_thread.c) and for
 * sigfd_unblocked_threads() (check.c); nothing here allocates. */
#ifndef SIGFD_TASKS_H
#define SIGFD_TASKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One thread as its status file shows it. */
struct task {
	const char *name; /* its entry in /proc/self/task: the id in /proc's pid namespace */
	uint64_t unblocked; /* bit (sig - 1): the signals it leaves unblocked */
	bool live;          /* not exited (a main thread after pthread_exit() is a zombie) */
	bool forwarder;     /* named sigfd-forward: a forwarding thread of some copy of the library */
	unsigned long threads; /* the process's threads when the file was made */
};

/* Calls visit(task, arg) for each thread (the caller too when with_self)
 * until visit returns true. 1 when visit stopped the walk, 0 when it saw
 * every thread, -1 and errno when the threads could not all be listed (no
 * /proc, no descriptor free, or threads coming and going during each of
 * several listings). Each listing starts with visit(NULL, arg): forget what
 * the last one said, it missed a thread. The files it opens for a moment
 * take numbers from base up when base is not 0. */
/* The caller's entry name in /proc/self/task (its id in /proc's pid
 * namespace, which gettid() need not be), from /proc/thread-self
 * (gettid() before Linux 3.17). TASK_NAME_SIZE holds any. */
#define TASK_NAME_SIZE 16
void tasks_own_name(char *name, size_t size);

int tasks_each(bool with_self, int base, bool (*visit)(const struct task *t, void *arg), void *arg);

/* For the forwarding thread, which looks after every read: the other
 * threads' status files kept open in its table, so that a look costs one
 * pread() a thread while the threads are the same ones (as many as the
 * first file's Threads line says, each file still there).
 * The values are read anew each time; only the files are kept. A process
 * with more than TASK_WATCH_MAX other threads is listed anew each time. */
#define TASK_WATCH_MAX 8
struct task_watch {
	int base; /* its files take numbers from here up */
	int dir;  /* /proc/self/task, or -1 */
	unsigned n;
	bool listed; /* fds holds every other thread's file */
	int fds[TASK_WATCH_MAX];
	char names[TASK_WATCH_MAX][TASK_NAME_SIZE];
	char self[TASK_NAME_SIZE];
};
/* Nothing open (the numbers of another table are forgotten, not closed);
 * files to be opened from base up. */
void tasks_watch_forget(struct task_watch *w, int base);
/* As tasks_each(false, visit, arg), through w. */
int tasks_watch_each(struct task_watch *w, bool (*visit)(const struct task *t, void *arg), void *arg);

#endif
