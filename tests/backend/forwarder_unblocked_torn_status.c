/* SPDX-License-Identifier: MIT */
/* A thread's status file read while the thread exits can be torn: the
 * kernel writes State first and the signal lines later, and once the
 * exiting thread has let go of its signal state, those lines read as for
 * no thread at all: "Threads: 0", every mask empty. A thread that blocks
 * everything then looked live and unblocking everything to the forwarding
 * thread, which gave what it had taken back to the kernel, behind what was
 * queued meanwhile (make fuzz-check's "burst: thread 0's signal 64 number 1
 * read after a later one", a sender thread exiting as it was looked at).
 * Such a file tells of a thread that is gone, and it must be read so.
 *
 * pread() is wrapped (tests.mk): the forwarding thread's first read of
 * thread T's status once it has taken values 1..BATCH is made torn, as
 * the kernel would make it, and values BATCH+1..VALUES are queued then.
 * All VALUES must be read from the share fd in order. Then every read of
 * T's status is torn, and sigfd_unblocked_threads() must not count T.
 * The user-space backend only (tests/folders). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/prctl.h>

#include "share_util.h"

#define BATCH 16
#define VALUES 24
#define TORN_NAME "torn-status"

ssize_t __real_pread(int fd, void *buf, size_t count, off_t at);
ssize_t __wrap_pread(int fd, void *buf, size_t count, off_t at);

static atomic_bool armed, tear_always;

/* The status text in buf (n bytes) as the kernel writes it once the
 * thread's signal state is gone: the counts zero, the sets empty. */
static ssize_t tear(char *buf, size_t n, size_t size)
{
	static const char *const sets[] = { "SigPnd:", "ShdPnd:", "SigBlk:", "SigIgn:", "SigCgt:" };
	char out[8192];
	size_t len = 0;

	buf[n] = 0;
	for (char *line = buf, *end; *line; line = end) {
		const char *text = line;

		end = strchr(line, '\n');
		end = end ? end + 1 : line + strlen(line);
		if (strncmp(line, "Threads:", 8) == 0)
			text = "Threads:\t0\n";
		else if (strncmp(line, "SigQ:", 5) == 0)
			text = "SigQ:\t0/0\n";
		for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
			if (strncmp(line, sets[i], strlen(sets[i])) == 0) {
				snprintf(out + len, sizeof out - len, "%s\t%016x\n", sets[i], 0);
				text = NULL;
				len += strlen(out + len);
			}
		if (text == line) {
			CHECK(len + (size_t)(end - line) < sizeof out);
			memcpy(out + len, line, (size_t)(end - line));
			len += (size_t)(end - line);
		} else if (text) {
			snprintf(out + len, sizeof out - len, "%s", text);
			len += strlen(out + len);
		}
	}
	CHECK(len < size);
	memcpy(buf, out, len);
	return (ssize_t)len;
}

ssize_t __wrap_pread(int fd, void *buf, size_t count, off_t at)
{
	ssize_t n = __real_pread(fd, buf, count, at);
	sigset_t pending;

	if (n <= 0 || (size_t)n >= count || !(atomic_load(&armed) || atomic_load(&tear_always)))
		return n;
	((char *)buf)[n] = 0;
	if (!strstr(buf, "Name:\t" TORN_NAME "\n"))
		return n;
	if (atomic_load(&tear_always))
		return tear(buf, (size_t)n, count);
	if (sigpending(&pending) < 0 ||
	    sigismember(&pending, SIGRTMIN) == 1 || !atomic_exchange(&armed, false))
		return n;
	for (int i = BATCH + 1; i <= VALUES; i++)
		CHECK(sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = i }) == 0);
	return tear(buf, (size_t)n, count);
}

static int ready[2], quit[2];

/* Thread T: named and blocking every signal (then says so on ready), live
 * until quit closes. */
static void *blocking_thread(void *unused)
{
	sigset_t all;
	char byte = 'r';

	(void)unused;
	sigfillset(&all);
	CHECK(pthread_sigmask(SIG_SETMASK, &all, NULL) == 0);
	CHECK(prctl(PR_SET_NAME, TORN_NAME) == 0);
	CHECK(write(ready[1], &byte, 1) == 1);
	CHECK(read(quit[0], &byte, 1) == 0);
	return NULL;
}

int main(void)
{
	sigset_t none, rt = set_of(SIGRTMIN);
	struct sigfd_siginfo r[VALUES + 1];
	int fd, bad;
	pthread_t t;
	char byte;

	CHECK(setenv("SIGFD_BACKEND", "thread", 1) == 0);
	sigemptyset(&none);
	block_only(&rt);
	CHECK(pipe(ready) == 0 && pipe(quit) == 0);
	CHECK(pthread_create(&t, NULL, blocking_thread, NULL) == 0);
	CHECK(read(ready[0], &byte, 1) == 1);
	fd = sigfd(&none, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(fd >= 0);
	for (int i = 1; i <= BATCH; i++)
		CHECK(sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = i }) == 0);
	atomic_store(&armed, true);
	CHECK(sigfd_setmask(fd, &rt) == 0);

	read_records(fd, r, VALUES);
	CHECK(read(fd, r + VALUES, sizeof r[0]) == -1 && errno == EAGAIN);
	CHECK(!atomic_load(&armed)); /* the torn read was made */
	bad = values_in_order(r, VALUES);

	atomic_store(&tear_always, true);
	CHECK(sigfd_unblocked_threads(&rt, NULL, 0) == 0);
	atomic_store(&tear_always, false);
	CHECK(sigfd_unblocked_threads(&rt, NULL, 0) == 0);
	CHECK(close(quit[1]) == 0);
	CHECK(pthread_join(t, NULL) == 0);
	CHECK(close(quit[0]) == 0 && close(ready[0]) == 0 && close(ready[1]) == 0);
	CHECK(close(fd) == 0);
	return bad;
}
