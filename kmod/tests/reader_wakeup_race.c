/* SPDX-License-Identifier: MIT */
/* Issue 16, M-2: a reader in another process than the creator keeps its
 * own signal wake-ups. Each read of the creator's descriptor runs
 * dequeue_signal() on the creator's queues, which recalculates the
 * reader's TIF_SIGPENDING under the creator's siglock, not the reader's;
 * a SIGUSR1 sent to the reader at that moment could lose its flag, even
 * when the read took nothing, and the reader then slept in poll() with an
 * unblocked signal pending. Here one process floods the reader with
 * SIGUSR1 (handled) while the reader reads an empty descriptor over and
 * over. The loss shows without timing: after a read, sigpending() saw
 * SIGUSR1, and the return from that very call ran no handler. Each loss is shown once more
 * as a poll() that sleeps its whole timeout, then healed with
 * sigprocmask() (which recalculates the flag under the reader's lock).
 * The test fails on any loss and prints the rate. */
#include <time.h>

#include "kmod_util.h"
#include "creator_util.h"

#define SECONDS 10 /* of reads, unless argv[1] says otherwise */

static volatile sig_atomic_t handled;

static void on_usr1(int sig)
{
	(void)sig;
	handled++;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_RESTART };
	long seconds = argc > 1 ? atol(argv[1]) : SECONDS, reads = 0, lost = 0, slept = 0;
	int fds_before = fd_count(), quit, fd;
	sigset_t none;
	pid_t creator, flooder, reader = getpid();
	struct sigfd_siginfo r;
	time_t start;

	sigemptyset(&none);
	block_only(&none);
	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
	creator = fork_creator(bit(SIGUSR2), SIGFD_KF_NONBLOCK, &fd, &quit);
	assert_kernel_fd(fd);
	flooder = fork();
	CHECK(flooder >= 0);
	if (flooder == 0) {
		for (;;)
			CHECK(kill(reader, SIGUSR1) == 0);
	}

	start = time(NULL);
	while (time(NULL) - start < seconds) {
		/* The next read would heal a loss (its recalculation sees the
		 * signal): look after each one, as a reader that reads until
		 * EAGAIN and then sleeps would. */
		CHECK(read(fd, &r, sizeof r) == -1 && errno == EAGAIN);
		reads++;
		sig_atomic_t before = handled;

		if (!pending_has(SIGUSR1) || handled != before)
			continue;
		lost++;
		/* The symptom: poll() sleeps with the signal pending. */
		if (poll(&(struct pollfd){ .fd = fd, .events = POLLIN }, 1, 50) == 0 &&
		    handled == before)
			slept++;
		CHECK(sigprocmask(SIG_SETMASK, &none, NULL) == 0);
		CHECK(handled != before);
	}
	CHECK(kill(flooder, SIGKILL) == 0);
	CHECK(waitpid(flooder, NULL, 0) == flooder);
	put_byte(quit);
	reap_ok(creator);
	printf("reader_wakeup_race: %ld reads of an empty descriptor under a SIGUSR1 flood, %d handled: "
	       "%ld lost wake-ups (%.2f per million reads), %ld of them slept a whole poll()\n",
	       reads, (int)handled, lost, reads ? lost * 1e6 / reads : 0.0, slept);
	CHECK(lost == 0);
	CHECK(close(fd) == 0 && close(quit) == 0);
	CHECK(fd_count() == fds_before);
	return 0;
}
