/* SPDX-License-Identifier: MIT */
/* The processes of our pid namespace, from /proc: the members of a process
 * group, to queue a signal to each (a group cannot be queued to), and the
 * processes we are answerable for at shutdown. A signal goes through a
 * pidfd opened before the process is looked at, so it can reach only the
 * process looked at, never one that took its pid since. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "watch.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

/* state, ppid and pgid of pid from /proc/PID/stat: 0, or -1. */
static int proc_ids(pid_t pid, char *state, pid_t *ppid, pid_t *pgid)
{
	char path[40], buf[512], *p;
	long a, b;
	ssize_t n;
	int fd;

	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	while ((n = read(fd, buf, sizeof buf - 1)) < 0 && errno == EINTR)
		;
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* "PID (COMM) STATE PPID PGRP ...": COMM may hold ')'. */
	if (!(p = strrchr(buf, ')')) || sscanf(p + 1, " %c %ld %ld", state, &a, &b) != 3)
		return -1;
	*ppid = (pid_t)a;
	*pgid = (pid_t)b;
	return 0;
}

int procs_list(struct procs *list)
{
	DIR *d = opendir("/proc");
	struct dirent *e;

	list->n = 0;
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		struct proc_ids one = {.pid = (pid_t)pid};
		if (*end || pid <= 0 || proc_ids(one.pid, &one.state, &one.ppid, &one.pgid) < 0)
			continue; /* not a process, or gone meanwhile */
		if (list->n == list->cap) {
			size_t cap = list->cap ? list->cap * 2 : 64;
			struct proc_ids *more = realloc(list->p, cap * sizeof *more);
			if (!more) {
				closedir(d);
				return -1;
			}
			list->p = more;
			list->cap = cap;
		}
		list->p[list->n++] = one;
	}
	closedir(d);
	return 0;
}

void procs_free(struct procs *list)
{
	free(list->p);
	list->p = NULL;
	list->n = list->cap = 0;
}

int procs_signal(const struct proc_ids *want, int sig, siginfo_t *si)
{
	pid_t pid = want->pid, ppid, pgid;
	int pfd = (int)syscall(SYS_pidfd_open, pid, 0), rc;
	char state;

	if (pfd < 0 && errno != ENOSYS && errno != EPERM)
		return -1; /* ESRCH: gone */
	/* Looked at after the pidfd pins it: a pid taken again by another
	 * process (another parent, another group) is left alone. */
	if (proc_ids(pid, &state, &ppid, &pgid) < 0 || (want->pgid && pgid != want->pgid) ||
	    (want->ppid && ppid != want->ppid)) {
		if (pfd >= 0)
			close(pfd);
		errno = ESRCH;
		return -1;
	}
	if (pfd < 0) /* no pidfds (before Linux 5.3, or a seccomp filter) */
		rc = si ? (int)syscall(SYS_rt_sigqueueinfo, pid, sig, si) : kill(pid, sig);
	else {
		rc = (int)syscall(SYS_pidfd_send_signal, pfd, sig, si, 0);
		int err = errno;
		close(pfd);
		errno = err;
	}
	return rc;
}

int procs_ours(const struct procs *list, pid_t me, unsigned char *mark)
{
	int n = 0, more = 1;

	for (size_t i = 0; i < list->n; i++)
		n += mark[i] = list->p[i].ppid == me;
	/* Down the tree, a generation a pass. */
	while (more) {
		more = 0;
		for (size_t i = 0; i < list->n; i++) {
			if (mark[i])
				continue;
			for (size_t j = 0; j < list->n; j++)
				if (mark[j] && list->p[j].pid == list->p[i].ppid) {
					mark[i] = 1;
					more = 1;
					n++;
					break;
				}
		}
	}
	return n;
}

/* Whether pid is in the n first of seen. */
static int seen_has(const pid_t *seen, size_t n, pid_t pid)
{
	for (size_t i = 0; i < n; i++)
		if (seen[i] == pid)
			return 1;
	return 0;
}

#define QUEUE_ROUNDS 4
int procs_queue_group(pid_t pgid, int sig, siginfo_t *si)
{
	struct procs list = {0};
	pid_t *seen = NULL;
	size_t nseen = 0, cap = 0;
	int found = 0, err = 0;

	/* A member that a member forks while we go through /proc may be
	 * missed where its pid was passed already: /proc is read again until
	 * no new member turns up. Each member gets the signal once. */
	for (int round = 0; round < QUEUE_ROUNDS; round++) {
		int fresh = 0;
		if (procs_list(&list) < 0) {
			err = errno ? errno : ENOMEM;
			break;
		}
		for (size_t i = 0; i < list.n; i++) {
			pid_t pid = list.p[i].pid;
			if (list.p[i].pgid != pgid || seen_has(seen, nseen, pid))
				continue;
			if (nseen == cap) {
				size_t more = cap ? cap * 2 : 16;
				pid_t *grown = realloc(seen, more * sizeof *grown);
				if (!grown) {
					err = ENOMEM;
					goto out;
				}
				seen = grown;
				cap = more;
			}
			seen[nseen++] = pid;
			fresh = 1;
			struct proc_ids want = {.pid = pid, .pgid = pgid};
			if (procs_signal(&want, sig, si) == 0)
				found++;
			else if (errno != ESRCH)
				err = errno;
		}
		if (!fresh)
			break;
	}
out:
	procs_free(&list);
	free(seen);
	if (err) {
		errno = err;
		return -1;
	}
	if (!found) {
		errno = ESRCH; /* as kill() says of an empty group */
		return -1;
	}
	return 0;
}
