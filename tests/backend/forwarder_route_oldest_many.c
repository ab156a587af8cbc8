/* SPDX-License-Identifier: MIT */
/* Among many share fds, a signal goes to the oldest whose mask holds it
 * (sigfd(3), BUGS: one share fd gets each signal), also after
 * sigfd_setmask() adds the signal to an old one or a close removes one:
 * the per-signal lists the forwarding thread routes by keep creation
 * order. 200 share fds for SIGUSR2, one for SIGUSR1 made after them; then
 * masks change and fds close, and each signal must reach the expected fd
 * and no other. The user-space backend's routing. */
#include "share_util.h"

#define MANY 200

static int fds[MANY + 1];

/* sig sent to ourselves must be read from fds[want] and no other fd. */
static void reaches(int sig, int want)
{
	struct sigfd_siginfo r;

	CHECK(kill(getpid(), sig) == 0);
	CHECK(poll_events(fds[want], POLLIN, 10000) & POLLIN);
	r = read_one(fds[want]);
	CHECK(r.ssi_signo == (uint32_t)sig);
	for (int i = 0; i <= MANY; i++)
		if (i != want && fds[i] >= 0 && (poll_events(fds[i], POLLIN, 0) & POLLIN)) {
			fprintf(stderr, "signal %d also readable from fd number %d\n", sig, i);
			CHECK(0);
		}
}

int main(void)
{
	sigset_t usr2 = set_of(SIGUSR2), usr1 = set_of(SIGUSR1), both = usr2;

	sigaddset(&both, SIGUSR1);
	block_only(&both);
	for (int i = 0; i < MANY; i++)
		CHECK((fds[i] = sigfd(&usr2, SIGFD_SHARE | SIGFD_NONBLOCK)) >= 0);
	CHECK((fds[MANY] = sigfd(&usr1, SIGFD_SHARE | SIGFD_NONBLOCK)) >= 0);
	reaches(SIGUSR1, MANY);
	reaches(SIGUSR2, 0);
	CHECK(sigfd_setmask(fds[100], &both) == 0);
	reaches(SIGUSR1, 100);
	CHECK(sigfd_setmask(fds[150], &usr1) == 0);
	reaches(SIGUSR1, 100);
	CHECK(close(fds[100]) == 0);
	fds[100] = -1;
	reaches(SIGUSR1, 150);
	CHECK(sigfd_setmask(fds[0], &usr1) == 0);
	reaches(SIGUSR2, 1);
	reaches(SIGUSR1, 0);
	CHECK(close(fds[0]) == 0);
	fds[0] = -1;
	reaches(SIGUSR1, 150);
	for (int i = 0; i <= MANY; i++)
		if (fds[i] >= 0)
			CHECK(close(fds[i]) == 0);
	puts("each signal reached the oldest share fd whose mask holds it");
	return 0;
}
