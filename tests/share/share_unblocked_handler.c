/* SPDX-License-Identifier: MIT */
/* A signal of a share fd's mask that the program leaves unblocked is
 * delivered the usual way: 200 SIGINTs sent one at a time by another
 * process, with a handler installed and SIGINT unblocked in the main
 * thread, all reach the handler and none is read from the descriptor
 * (sigfd(3): the forwarding thread never takes a signal that another
 * thread leaves unblocked and would act on). */
#include <stdbool.h>

#include "share_util.h"

#define COUNT 200

static int handled[2];

static void on_int(int sig)
{
	int saved = errno;

	(void)sig;
	(void)!write(handled[1], "h", 1);
	errno = saved;
}

int main(void)
{
	sigset_t mask = set_of(SIGINT), usr1 = set_of(SIGUSR1);
	struct sigaction sa = { .sa_handler = on_int };
	int go[2], fd, stolen = 0, delivered = 0;
	pid_t me = getpid(), sender;

	sigaddset(&mask, SIGUSR1);
	block_only(&usr1);
	CHECK(pipe(handled) == 0 && pipe(go) == 0);
	CHECK(sigaction(SIGINT, &sa, NULL) == 0);
	fd = sigfd(&mask, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(fd >= 0);
	sender = fork();
	CHECK(sender >= 0);
	if (sender == 0) {
		for (int i = 0; i < COUNT; i++) {
			get_byte(go[0]);
			CHECK(kill(me, SIGINT) == 0);
		}
		_exit(0);
	}
	for (int i = 0; i < COUNT; i++) {
		bool done = false;

		put_byte(go[1]);
		while (!done) {
			struct pollfd p[2] = { { .fd = fd, .events = POLLIN },
					       { .fd = handled[0], .events = POLLIN } };
			struct sigfd_siginfo r;
			ssize_t n;
			char c;

			while (poll(p, 2, -1) < 0)
				CHECK(errno == EINTR);
			if (p[1].revents & POLLIN) {
				CHECK(read(handled[0], &c, 1) == 1);
				delivered++;
				done = true;
				continue;
			}
			/* A kernel backend's poll can see the signal pending just
			 * before the kernel delivers it on poll's way out: nothing
			 * to read then, and the handler's byte comes next. */
			n = read(fd, &r, sizeof r);
			if (n < 0 && errno == EAGAIN)
				continue;
			CHECK(n == (ssize_t)sizeof r && r.ssi_signo == SIGINT);
			stolen++;
			done = true;
		}
	}
	reap_ok(sender);
	printf("%d SIGINTs reached the handler, %d were read from the descriptor\n", delivered, stolen);
	CHECK(stolen == 0 && delivered == COUNT);
	CHECK(close(fd) == 0);
	close_pair(handled);
	close_pair(go);
	return 0;
}
