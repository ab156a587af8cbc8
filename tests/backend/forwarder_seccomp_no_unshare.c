/* SPDX-License-Identifier: MIT */
/* Share mode works under a seccomp filter that refuses unshare(), as the
 * default profiles of Docker and Podman do without CAP_SYS_ADMIN: sigfd()
 * returns a share fd and a signal sent then is read from it. Two filters:
 * unshare() fails with EPERM (the containers' answer; issue 25: sigfd()
 * failed with EPERM), and unshare() kills the calling thread (issue 25:
 * sigfd() never returned). */
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "share_util.h"

/* musl's compiler wrapper has no kernel headers. */
#if __has_include(<linux/seccomp.h>)
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#if defined(__x86_64__)
#define THIS_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define THIS_ARCH AUDIT_ARCH_AARCH64
#elif defined(__i386__)
#define THIS_ARCH AUDIT_ARCH_I386
#endif
#endif

#ifdef THIS_ARCH
/* Every system call allowed but unshare(), which gets action. */
static void refuse_unshare(unsigned action)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, THIS_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_unshare, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, action),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof code / sizeof code[0], code };

	CHECK(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0);
	CHECK(syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog) == 0);
}

static void share_fd_works_under(unsigned action, const char *what)
{
	pid_t child = fork();

	CHECK(child >= 0);
	if (child == 0) {
		sigset_t mask = set_of(SIGUSR1);
		int fd;

		refuse_unshare(action);
		if (action == (SECCOMP_RET_ERRNO | EPERM))
			CHECK(unshare(CLONE_FILES) < 0 && errno == EPERM);
		block_only(&mask);
		fd = sigfd(&mask, SIGFD_SHARE);
		if (fd < 0)
			fprintf(stderr, "%s: sigfd: %s\n", what, strerror(errno));
		CHECK(fd >= 0);
		CHECK(kill(getpid(), SIGUSR1) == 0);
		CHECK(read_one(fd).ssi_signo == SIGUSR1);
		CHECK(close(fd) == 0);
		exit(0); /* the library joins its thread */
	}
	reap_ok(child);
	printf("share fd made and read with unshare() %s\n", what);
}
#endif

int main(void)
{
#ifdef THIS_ARCH
	if (under_valgrind()) {
		puts("SKIPPED: valgrind does not run seccomp()");
		return 77;
	}
	share_fd_works_under(SECCOMP_RET_ERRNO | EPERM, "refused with EPERM");
	share_fd_works_under(SECCOMP_RET_KILL_THREAD, "killing the thread");
	return 0;
#else
	puts("SKIPPED: no seccomp headers, or no architecture number known for this machine");
	return 77;
#endif
}
