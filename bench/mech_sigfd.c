/* SPDX-License-Identifier: MIT */
/* The library under test, in each of its modes. All three yield records
 * laid out as struct signalfd_siginfo, so they share fdrec_read. */
#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "sigfd.h"

/* SIGFD_BACKEND picks the share-mode backend (src/sigfd.c): "user" keeps
 * the user-space forwarder even inside the guest where /dev/sigfd exists,
 * so sigfd-share and sigfd-kernel are always the two backends. */
static int open_mode(int signo, unsigned long flags, const char *backend)
{
	sigset_t set;

	if (backend && setenv("SIGFD_BACKEND", backend, 1) < 0)
		return -1;
	sigemptyset(&set);
	sigaddset(&set, signo);
	/* As with signalfd, the signals are blocked so that the descriptor,
	 * not the default action, receives them. */
	if (block_sig(signo) < 0)
		return -1;
	return sigfd(&set, flags | SIGFD_CLOEXEC);
}

struct sf {
	int fd;
	int *idle; /* sigfd-share-5000: the other share fds, or NULL */
	int nidle;
};

static void *setup_mode(int signo, char *err, size_t n, unsigned long flags,
			const char *backend)
{
	struct sf *s = malloc(sizeof *s);

	if (!s) {
		errf(err, n, "malloc");
		return NULL;
	}
	s->idle = NULL;
	s->nidle = 0;
	s->fd = open_mode(signo, flags, backend);
	if (s->fd < 0) {
		errf(err, n, "sigfd: %s", strerror(errno));
		free(s);
		return NULL;
	}
	return s;
}

static void *local_setup(int signo, char *err, size_t n)
{
	return setup_mode(signo, err, n, 0, NULL);
}

static void *share_setup(int signo, char *err, size_t n)
{
	return setup_mode(signo, err, n, SIGFD_SHARE, "user");
}

/* Share mode beside IDLE_SHARE_FDS other share fds for another signal,
 * made first, so that they come first in every list the forwarding thread
 * keeps: its per-signal cost must not grow with them (issue 25: 1.2x at
 * most). The soft RLIMIT_NOFILE is raised to the hard one for them. */
#define IDLE_SHARE_FDS 4999

static void *share_many_setup(int signo, char *err, size_t n)
{
	struct rlimit lim;
	sigset_t other;
	struct sf *s;
	int *idle = calloc(IDLE_SHARE_FDS, sizeof *idle), k = 0;

	if (!idle) {
		errf(err, n, "calloc");
		return NULL;
	}
	if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
		lim.rlim_cur = lim.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &lim);
	}
	if (setenv("SIGFD_BACKEND", "user", 1) < 0) {
		errf(err, n, "setenv");
		free(idle);
		return NULL;
	}
	sigemptyset(&other);
	sigaddset(&other, signo == SIGRTMAX ? SIGRTMAX - 1 : SIGRTMAX);
	for (; k < IDLE_SHARE_FDS; k++)
		if ((idle[k] = sigfd(&other, SIGFD_SHARE | SIGFD_CLOEXEC)) < 0) {
			errf(err, n, "sigfd number %d of %d: %s", k + 1, IDLE_SHARE_FDS, strerror(errno));
			while (k > 0)
				close(idle[--k]);
			free(idle);
			return NULL;
		}
	s = setup_mode(signo, err, n, SIGFD_SHARE, "user");
	if (!s) {
		while (k > 0)
			close(idle[--k]);
		free(idle);
		return NULL;
	}
	s->idle = idle;
	s->nidle = k;
	return s;
}

static void *kernel_setup(int signo, char *err, size_t n)
{
	return setup_mode(signo, err, n, SIGFD_SHARE, "kernel");
}

static void *native_setup(int signo, char *err, size_t n)
{
	return setup_mode(signo, err, n, SIGFD_SHARE, "native");
}

static int probe_mode(char *why, size_t n, unsigned long flags, const char *backend)
{
	int fd = open_mode(BENCH_SIG, flags, backend);

	if (fd < 0) {
		errf(why, n, "not available: sigfd(%s) fails with %s%s",
		     backend ? "SIGFD_SHARE" : "0",
		     errno == ENOSYS ? "ENOSYS" : strerror(errno),
		     backend && !strcmp(backend, "kernel") ? " (needs /dev/sigfd: QEMU guest)" :
		     backend && !strcmp(backend, "native") ? " (needs SFD_CREATOR: make kpatch-bench)" : "");
		return -1;
	}
	close(fd);
	return 0;
}

static int share_probe(char *why, size_t n)
{
	return probe_mode(why, n, SIGFD_SHARE, "user");
}

static int kernel_probe(char *why, size_t n)
{
	return probe_mode(why, n, SIGFD_SHARE, "kernel");
}

static int native_probe(char *why, size_t n)
{
	return probe_mode(why, n, SIGFD_SHARE, "native");
}

static int sf_one(void *st, struct rec *out, int timeout_ms)
{
	return fdrec_read(((struct sf *)st)->fd, out, 1, timeout_ms);
}

static int sf_batch(void *st, struct rec *out, int max, int timeout_ms)
{
	return fdrec_read(((struct sf *)st)->fd, out, max, timeout_ms);
}

static void sf_teardown(void *st)
{
	struct sf *s = st;

	close(s->fd);
	while (s->nidle > 0)
		close(s->idle[--s->nidle]);
	free(s->idle);
	free(s);
}

const struct mech mech_sigfd_local = {
	.name = "sigfd-local",
	.what = "sigfd(mask, 0): a kernel signalfd behind the library call",
	.flags = M_VALUES | M_SIGFD,
	.setup = local_setup,
	.wait_one = sf_one,
	.wait_batch = sf_batch,
	.teardown = sf_teardown,
};

const struct mech mech_sigfd_share = {
	.name = "sigfd-share",
	.what = "sigfd(mask, SIGFD_SHARE), user-space backend (SIGFD_BACKEND=user)",
	.flags = M_VALUES | M_SIGFD,
	.probe = share_probe,
	.setup = share_setup,
	.wait_one = sf_one,
	.wait_batch = sf_batch,
	.teardown = sf_teardown,
};

const struct mech mech_sigfd_share_5000 = {
	.name = "sigfd-share-5000",
	.what = "sigfd-share with 4,999 other share fds (another signal) open before it",
	.flags = M_VALUES | M_SIGFD,
	.probe = share_probe,
	.setup = share_many_setup,
	.wait_one = sf_one,
	.wait_batch = sf_batch,
	.teardown = sf_teardown,
};

const struct mech mech_sigfd_kernel = {
	.name = "sigfd-kernel",
	.what = "sigfd(mask, SIGFD_SHARE), kernel backend /dev/sigfd (SIGFD_BACKEND=kernel)",
	.flags = M_VALUES | M_SIGFD,
	.probe = kernel_probe,
	.setup = kernel_setup,
	.wait_one = sf_one,
	.wait_batch = sf_batch,
	.teardown = sf_teardown,
};

const struct mech mech_sigfd_native = {
	.name = "sigfd-native",
	.what = "sigfd(mask, SIGFD_SHARE), the kernel's SFD_CREATOR (SIGFD_BACKEND=native)",
	.flags = M_VALUES | M_SIGFD,
	.probe = native_probe,
	.setup = native_setup,
	.wait_one = sf_one,
	.wait_batch = sf_batch,
	.teardown = sf_teardown,
};
