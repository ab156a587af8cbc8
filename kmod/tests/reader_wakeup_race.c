/* SPDX-License-Identifier: MIT */
/* Issue 16, M-2: a reader in another process than the creator keeps its
 * own signal wake-ups. Each read of the creator's descriptor runs
 * dequeue_signal() on the creator's queues, which recalculates the
 * reader's TIF_SIGPENDING under the creator's siglock, not the reader's;
 * a SIGUSR1 sent to the reader at that moment could lose its flag, even
 * when the read took nothing, and the reader then slept in poll() with an
 * unblocked signal pending. Here one process keeps sending the reader
 * SIGUSR1 (handled) while the reader reads an empty descriptor over and
 * over. The sender waits for each SIGUSR1 to be handled and sends the next
 * at a random point of the reader's loop: a flood that refilled the
 * reader's pending set at once would leave it no moment with nothing
 * pending, the only moment the recalculation can clear the flag.
 * The loss shows without timing: after a read, SIGUSR1 was pending and
 * the return from the call that saw it ran no handler. That call is a
 * poll() of a signalfd for SIGUSR1, which reads the queues whether the
 * signal is blocked or not and recalculates nothing (sigpending() shows
 * blocked signals only: it could never see this loss). Each loss is shown
 * once more as a poll() of the descriptor that sleeps its whole timeout,
 * then healed with sigprocmask() (a change of mask recalculates the flag
 * under the reader's lock).
 * The test fails on any loss and prints the rate. kmod/guest-m2.sh runs it
 * on test builds of the module that widen the window. */
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <time.h>

#include "kmod_util.h"
#include "creator_util.h"

#define SECONDS 10 /* of reads, unless argv[1] says otherwise */

/* Shared with the sender. */
struct shared {
	long reads;   /* by the reader */
	long handled; /* SIGUSR1s the reader's handler ran */
};
static struct shared *sh;

static void on_usr1(int sig)
{
	(void)sig;
	__atomic_add_fetch(&sh->handled, 1, __ATOMIC_SEQ_CST);
}

static long handled(void)
{
	return __atomic_load_n(&sh->handled, __ATOMIC_SEQ_CST);
}

/* Is SIGUSR1 pending (poll() of @usr1, a signalfd for it)? A handler that
 * runs on the way back says no. */
static int usr1_pending(int usr1)
{
	struct pollfd p = { .fd = usr1, .events = POLLIN };
	int n = poll(&p, 1, 0);

	CHECK(n >= 0 || errno == EINTR);
	return n > 0 && (p.revents & POLLIN);
}

/* Each SIGUSR1 once the last was handled, after a pause of up to twice
 * the reader's mean time a read so far. */
static void sender(pid_t reader)
{
	double start = now_us();
	uint32_t rnd = 1;

	for (;;) {
		long seen = handled();
		double loop = (now_us() - start) / (__atomic_load_n(&sh->reads, __ATOMIC_SEQ_CST) + 1);
		double until;

		rnd = rnd * 1103515245 + 12345;
		until = now_us() + loop * ((rnd >> 16) % 2048) / 1024;
		while (now_us() < until)
			;
		CHECK(kill(reader, SIGUSR1) == 0);
		while (handled() == seen)
			;
	}
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_RESTART };
	long seconds = argc > 1 ? atol(argv[1]) : SECONDS, reads = 0, lost = 0, slept = 0;
	int fds_before = fd_count(), quit, fd, usr1;
	sigset_t none, usr1_set = set_of(SIGUSR1);
	pid_t creator, sender_pid, reader = getpid();
	struct sigfd_siginfo r;
	time_t start;

	sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(sh != MAP_FAILED);
	sigemptyset(&none);
	block_only(&none);
	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
	usr1 = signalfd(-1, &usr1_set, SFD_NONBLOCK | SFD_CLOEXEC);
	CHECK(usr1 >= 0);
	creator = fork_creator(bit(SIGUSR2), SIGFD_KF_NONBLOCK, &fd, &quit);
	assert_kernel_fd(fd);
	sender_pid = fork();
	CHECK(sender_pid >= 0);
	if (sender_pid == 0) {
		/* Gone with the reader even when a check fails (make kmod-m2-check
		 * unloads the module right after). */
		CHECK(prctl(PR_SET_PDEATHSIG, SIGKILL) == 0 && getppid() == reader);
		CHECK(close(fd) == 0);
		sender(reader);
	}

	start = time(NULL);
	while (time(NULL) - start < seconds) {
		/* The next read would heal a loss (its recalculation sees the
		 * signal): look after each one, as a reader that reads until
		 * EAGAIN and then sleeps would. */
		CHECK(read(fd, &r, sizeof r) == -1 && errno == EAGAIN);
		__atomic_store_n(&sh->reads, ++reads, __ATOMIC_SEQ_CST);
		long before = handled();

		if (!usr1_pending(usr1) || handled() != before)
			continue;
		lost++;
		/* The symptom: poll() sleeps with the signal pending. */
		if (poll(&(struct pollfd){ .fd = fd, .events = POLLIN }, 1, 50) == 0 &&
		    handled() == before)
			slept++;
		/* A mask that changes recalculates the flag (setting the same
		 * one does nothing). */
		CHECK(sigprocmask(SIG_BLOCK, &usr1_set, NULL) == 0);
		CHECK(sigprocmask(SIG_SETMASK, &none, NULL) == 0);
		CHECK(handled() != before);
	}
	CHECK(kill(sender_pid, SIGKILL) == 0);
	CHECK(waitpid(sender_pid, NULL, 0) == sender_pid);
	put_byte(quit);
	reap_ok(creator);
	printf("reader_wakeup_race: %ld reads of an empty descriptor, %ld SIGUSR1 handled meanwhile: "
	       "%ld lost wake-ups (%.2f per million reads), %ld of them slept a whole poll()\n",
	       reads, handled(), lost, reads ? lost * 1e6 / reads : 0.0, slept);
	CHECK(lost == 0);
	CHECK(close(fd) == 0 && close(quit) == 0 && close(usr1) == 0);
	CHECK(fd_count() == fds_before);
	CHECK(munmap(sh, sizeof *sh) == 0);
	return 0;
}
