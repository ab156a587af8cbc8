/* SPDX-License-Identifier: MIT */
/* pthread_cancel() never makes sigfd(), sigfd_setmask() or
 * sigfd_unblocked_threads() leak a descriptor: none of them is a
 * cancellation point (SIGFD_DEBUG=1 makes the first two look at /proc,
 * with calls that are), and each gives the caller's cancellation state back
 * with the request still pending, so the caller's next cancellation point
 * acts on it. The request is made before the call, so it is there at every
 * cancellation point the call passes. In local mode, and in share mode. */
#include <pthread.h>

#include "check.h"

enum call { MAKE, SETMASK, UNBLOCKED };

static int go[2];
static enum call which;
static unsigned long mode;
static int target, made;
static int state_seen;

/* The worker's data is static: the frames a cancellation unwinds keep no
 * locals (AddressSanitizer would take their poisoned stack, left behind by
 * the forced unwind, for a use after scope when the thread ends; clang's
 * reports it in its own sigaltstack() at thread exit, google/sanitizers
 * issue 1399). So get_byte()'s local lives in a frame of its own, which
 * returns before the cancellation. */
static sigset_t usr1;
static pid_t tids[4];

__attribute__((noinline)) static void wait_for_go(void)
{
	get_byte(go[0]);
}

static void *worker(void *unused)
{
	(void)unused;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	wait_for_go(); /* the cancellation request is pending by now */
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
	switch (which) {
	case MAKE:
		made = sigfd(&usr1, mode | SIGFD_CLOEXEC);
		break;
	case SETMASK:
		made = sigfd_setmask(target, &usr1);
		break;
	case UNBLOCKED:
		made = sigfd_unblocked_threads(&usr1, tids, 4);
		break;
	}
	/* Still enabled, as it was: the request acts at the next point. */
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, &state_seen);
	pthread_testcancel();
	return NULL;
}

static void round_of(enum call call)
{
	int before = lowest_free_fd();
	pthread_t t;
	void *result;

	which = call;
	made = -2;
	state_seen = -1;
	CHECK(pthread_create(&t, NULL, worker, NULL) == 0);
	CHECK(pthread_cancel(t) == 0);
	put_byte(go[1]);
	CHECK(pthread_join(t, &result) == 0);
	CHECK(result == PTHREAD_CANCELED);
	if (made == -2) {
		fprintf(stderr, "call %d (mode %lu): cancelled inside the call\n", (int)call, mode);
		exit(1);
	}
	CHECK(state_seen == PTHREAD_CANCEL_ENABLE);
	if (call == MAKE) {
		CHECK(made >= 0);
		CHECK(close(made) == 0);
	} else
		CHECK(made >= 0);
	WAIT_UNTIL(lowest_free_fd() == before); /* share mode: its own fds go a hop later */
}

int main(void)
{
	usr1 = set_of(SIGUSR1);

	CHECK(setenv("SIGFD_DEBUG", "1", 1) == 0);
	block_only(&usr1);
	CHECK(pipe(go) == 0);
	for (int m = 0; m < 2; m++) {
		mode = m ? SIGFD_SHARE : 0;
		target = sigfd(&usr1, mode | SIGFD_CLOEXEC);
		CHECK(target >= 0);
		for (int i = 0; i < 3; i++) {
			round_of(MAKE);
			round_of(SETMASK);
			round_of(UNBLOCKED);
		}
		CHECK(close(target) == 0);
	}
	close_pair(go);
	return 0;
}
