/* SPDX-License-Identifier: MIT */
/* sigfd-watch's origin words (tools/describe.c), one per si_code the kernel
 * can put in a record, as docs/sigfd-watch.1 lists them. Origins a test
 * cannot produce from outside (a POSIX timer in the watched process, a
 * message queue, a fault) are checked here on records built by hand; kill,
 * sigqueue, tkill, kernel and the child codes are also checked end to end
 * (watch_*.sh, watch_origins). */
#include "check.h"
#include "../tools/describe.h"

static void expect(int signo, int code, const char *want)
{
	struct sigfd_siginfo r;
	const char *got;

	memset(&r, 0, sizeof r);
	r.ssi_signo = (uint32_t)signo;
	r.ssi_code = code;
	got = describe_origin(&r);
	if (strcmp(got, want) != 0) {
		fprintf(stderr, "signal %d code %d: origin '%s', want '%s'\n", signo, code, got, want);
		exit(1);
	}
}

int main(void)
{
	expect(SIGUSR1, SI_USER, "kill");
	expect(SIGUSR1, SI_QUEUE, "sigqueue");
	expect(SIGRTMIN, SI_TIMER, "timer");
	expect(SIGRTMIN, SI_MESGQ, "mesgq");
	expect(SIGRTMIN, SI_ASYNCIO, "asyncio");
	expect(SIGIO, SI_SIGIO, "sigio");
	expect(SIGUSR2, SI_TKILL, "tkill");
	expect(SIGALRM, SI_KERNEL, "kernel");
	expect(SIGCHLD, CLD_EXITED, "child-exited");
	expect(SIGCHLD, CLD_KILLED, "child-killed");
	expect(SIGCHLD, CLD_DUMPED, "child-dumped");
	expect(SIGCHLD, CLD_TRAPPED, "child-trapped");
	expect(SIGCHLD, CLD_STOPPED, "child-stopped");
	expect(SIGCHLD, CLD_CONTINUED, "child-continued");
	expect(SIGCHLD, SI_USER, "kill"); /* kill -CHLD is no child report */
	expect(SIGIO, POLL_IN, "poll-in");
	expect(SIGRTMIN + 1, POLL_OUT, "poll-out");
	expect(SIGIO, POLL_MSG, "poll-msg");
	expect(SIGIO, POLL_ERR, "poll-err");
	expect(SIGIO, POLL_PRI, "poll-pri");
	expect(SIGIO, POLL_HUP, "poll-hup");
	expect(SIGSEGV, SEGV_MAPERR, "fault");
	expect(SIGFPE, FPE_INTDIV, "fault");
	expect(SIGTRAP, TRAP_BRKPT, "trap");
	expect(SIGSYS, 1 /* SYS_SECCOMP */, "seccomp");
	expect(SIGCHLD, 77, "unknown");
	expect(SIGUSR1, -77, "unknown");
	return 0;
}
