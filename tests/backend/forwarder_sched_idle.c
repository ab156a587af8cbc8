/* SPDX-License-Identifier: MIT */
/* A program run whole under SCHED_IDLE (chrt -i 0) by a user without
 * CAP_SYS_NICE makes a share fd: the forwarding thread takes the main
 * thread's policy, as it takes its CPUs and nice value. It was made with
 * SCHED_OTHER asked for explicitly, which an unprivileged thread may not
 * move to from SCHED_IDLE: sigfd() failed with EPERM. */
#include <grp.h>
#include <sched.h>
#include <sys/syscall.h>

#include "share_util.h"

#define NOBODY 65534

static long policy_of(pid_t tid)
{
	return syscall(SYS_sched_getscheduler, (long)tid); /* musl has no wrapper */
}

int main(void)
{
	sigset_t mask = set_of(SIGUSR1);
	struct sched_param none = { 0 };
	pid_t tid;
	int fd;

	block_only(&mask);
	/* Root may leave SCHED_IDLE: be nobody, real ids too, as a
	 * container's user is. */
	if (geteuid() == 0)
		CHECK(setgroups(0, NULL) == 0 && setgid(NOBODY) == 0 && setuid(NOBODY) == 0);
	CHECK(syscall(SYS_sched_setscheduler, 0L, (long)SCHED_IDLE, &none) == 0);
	fd = sigfd(&mask, SIGFD_SHARE);
	if (fd < 0)
		fprintf(stderr, "sigfd under SCHED_IDLE: %s\n", strerror(errno));
	CHECK(fd >= 0);
	CHECK((tid = forwarder_tid()) > 0);
	printf("forwarding thread: policy %ld, the main thread's %ld\n", policy_of(tid), policy_of(getpid()));
	CHECK(policy_of(tid) == SCHED_IDLE);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(read_one(fd).ssi_signo == SIGUSR1);
	CHECK(close(fd) == 0);
	return 0;
}
