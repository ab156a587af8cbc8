/* SPDX-License-Identifier: MIT */
/* What a sigfd costs in user memory and descriptors. In a fresh child:
 * snapshot, open one fd (and pass one signal through it, so any thread or
 * buffer behind it has run), snapshot, open mem_fds - 1 more, snapshot.
 * per fd = (last - second) / (mem_fds - 1); per process = the first fd's
 * cost less one per-fd share: the fixed price of the first use (share
 * mode's forwarding thread and its descriptors). Descriptors are counted
 * in all, and those that are sockets or pipe ends (a share fd is the read
 * end of a pipe whose write end the thread keeps). Memory is RssAnon
 * (private pages touched: heap, stacks), VmSize (address space reserved)
 * and the malloc heap in use. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "bench.h"
#include "sigfd.h"

static int block_one(int signo, sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, signo);
	return block_sig(signo);
}

static int open_signalfd(int signo)
{
	sigset_t set;

	return block_one(signo, &set) < 0 ? -1 : signalfd(-1, &set, SFD_CLOEXEC);
}

static int open_sigfd(int signo, unsigned long flags, const char *backend)
{
	sigset_t set;

	if (backend && setenv("SIGFD_BACKEND", backend, 1) < 0)
		return -1;
	return block_one(signo, &set) < 0 ? -1 : sigfd(&set, flags | SIGFD_CLOEXEC);
}

static int open_local(int signo)
{
	return open_sigfd(signo, 0, NULL);
}

static int open_share(int signo)
{
	return open_sigfd(signo, SIGFD_SHARE, "user");
}

static int open_kernel(int signo)
{
	return open_sigfd(signo, SIGFD_SHARE, "kernel");
}

const struct memmode memmodes[] = {
	{ "signalfd", open_signalfd },
	{ "sigfd-local", open_local },
	{ "sigfd-share", open_share },
	{ "sigfd-kernel", open_kernel },
};
const int n_memmodes = sizeof memmodes / sizeof memmodes[0];

struct snap {
	double v[MEM_N];
};

static void take(struct snap *s)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	char line[256];
	FILE *f;

	memset(s, 0, sizeof *s);
	if (d) {
		while ((e = readdir(d))) {
			struct stat st;
			int fd = atoi(e->d_name);
			if (e->d_name[0] == '.' || fd == dirfd(d))
				continue;
			s->v[MEM_FDS]++;
			if (fstat(fd, &st) < 0)
				continue;
			if (S_ISSOCK(st.st_mode))
				s->v[MEM_SOCKS]++;
			else if (S_ISFIFO(st.st_mode))
				s->v[MEM_PIPES]++;
		}
		closedir(d);
	}
	if ((f = fopen("/proc/self/status", "r"))) {
		while (fgets(line, sizeof line, f)) {
			double x;
			if (sscanf(line, "Threads: %lf", &x) == 1)
				s->v[MEM_THREADS] = x;
			else if (sscanf(line, "RssAnon: %lf", &x) == 1)
				s->v[MEM_ANON_KIB] = x;
			else if (sscanf(line, "VmSize: %lf", &x) == 1)
				s->v[MEM_VSZ_KIB] = x;
		}
		fclose(f);
	}
#ifdef __GLIBC__
	/* Last, after the stdio buffer above is freed again. */
	struct mallinfo2 mi = mallinfo2();
	s->v[MEM_HEAP_B] = (double)(mi.uordblks + mi.hblkhd);
#else
	s->v[MEM_HEAP_B] = NAN; /* not measurable without mallinfo2 */
#endif
}

static long nfds;

static int body(void *arg, char *err, size_t n)
{
	const struct memmode *mm = arg;
	struct snap s0, s1, sn;
	struct memres *out = child_blob();
	int fds[64];

	if (nfds < 2 || nfds > 64)
		nfds = 16;
	/* Pay the bench's own first-use costs (stdio, opendir, the stack and
	 * code of a signal through a descriptor) before the first snapshot. */
	take(&s0);
	{
		int w = open_signalfd(SIGRTMAX), ok;
		struct rec r;
		ok = w >= 0 && kill(getpid(), SIGRTMAX) == 0 && fdrec_read(w, &r, 1, 5000) == 1;
		if (w >= 0)
			close(w);
		if (!ok) {
			errf(err, n, "failed: warm-up signalfd");
			return -1;
		}
	}
	take(&s0);
	for (long i = 0; i < nfds; i++) {
		int signo = BENCH_SIG + (int)i;
		struct rec r;
		fds[i] = mm->open(signo);
		if (fds[i] < 0) {
			errf(err, n, "%s: open of fd %ld: %s", errno == ENOSYS ? "not available" : "failed",
			     i + 1, errno == ENOSYS ? "ENOSYS" : strerror(errno));
			return -1;
		}
		if (kill(getpid(), signo) < 0 || fdrec_read(fds[i], &r, 1, 5000) != 1 || r.signo != signo) {
			errf(err, n, "failed: signal %d did not come through fd %ld", signo, i + 1);
			return -1;
		}
		if (i == 0)
			take(&s1);
	}
	take(&sn);
	for (int k = 0; k < MEM_N; k++) {
		out->per_fd[k] = (sn.v[k] - s1.v[k]) / (double)(nfds - 1);
		out->per_process[k] = s1.v[k] - s0.v[k] - out->per_fd[k];
	}
	return 0;
}

void test_memory(const struct memmode *mm, long mem_fds, struct memres *r)
{
	memset(r, 0, sizeof *r);
	nfds = mem_fds;
	if (run_in_child(body, (void *)mm, r, sizeof *r, r->msg, sizeof r->msg) < 0)
		r->status = strncmp(r->msg, "not available", 13) ? OUT_FAIL : OUT_UNAVAIL;
	else
		r->status = OUT_OK;
}
