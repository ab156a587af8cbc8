/* SPDX-License-Identifier: MIT */
/* A standard signal coalesces only with an unread record in a share fd that
 * would take it now, as the kernel's pending bit does. Share fd A holds an
 * unread SIGUSR1, then A's mask is emptied: A's record stays, but a later
 * SIGUSR1 is not A's any more; it goes to share fd B {SIGUSR1}, and once B's
 * record is unread, a third one coalesces there. */
#include "share_util.h"

/* What a share fd of mask shows once the signals sent so far have been
 * taken (settle(), check.h); the kernel backends take at read(). */
static short readable(int fd, const sigset_t *mask)
{
	settle(fd, mask);
	return poll_events(fd, POLLIN, kernel_backend(fd) ? 5000 : 0);
}

int main(void)
{
	sigset_t usr1 = set_of(SIGUSR1), none;
	struct sigfd_siginfo r;
	int a, b;

	sigemptyset(&none);
	block_only(&usr1);
	a = sigfd(&usr1, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(a >= 0);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(readable(a, &usr1) & POLLIN);
	CHECK(sigfd_setmask(a, &none) == 0);

	b = sigfd(&usr1, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(b >= 0);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	if (!(readable(b, &usr1) & POLLIN)) {
		fprintf(stderr, "SIGUSR1 coalesced into a record of a fd that no longer takes it "
				"(pending: %d)\n", pending_has(SIGUSR1));
		leak_check_off();
		return 1;
	}
	CHECK(kill(getpid(), SIGUSR1) == 0); /* B's record is unread: one record */
	settle(b, &usr1);
	r = read_one(b);
	CHECK(r.ssi_signo == SIGUSR1 && r.ssi_code == SI_USER);
	CHECK(read(b, &r, sizeof r) == -1 && errno == EAGAIN);
	CHECK(!pending_has(SIGUSR1));
	if (!kernel_backend(a)) { /* A's record was written before the change */
		CHECK(read_one(a).ssi_signo == SIGUSR1);
	}
	CHECK(read(a, &r, sizeof r) == -1 && errno == EAGAIN);
	CHECK(close(a) == 0);
	CHECK(close(b) == 0);
	return 0;
}
