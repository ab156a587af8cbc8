/* SPDX-License-Identifier: MIT */
/* Several readers and several senders at once on one creator's descriptor
 * (readers in three other processes plus the creator itself): every value
 * is read exactly once, and each reader sees each sender's values in order. */
#include <sys/mman.h>

#include "kmod_util.h"

#define SENDERS 3
#define READERS 3
#define EACH 4000
#define TOTAL (SENDERS * EACH)

struct shared {
	int taken;                 /* records read, all readers */
	unsigned char seen[TOTAL]; /* times each value was read */
};

static int reader(int fd, struct shared *sh)
{
	int last[SENDERS];
	struct sigfd_siginfo r[8];
	struct pollfd p = { .fd = fd, .events = POLLIN };

	for (int s = 0; s < SENDERS; s++)
		last[s] = -1;
	while (__atomic_load_n(&sh->taken, __ATOMIC_SEQ_CST) < TOTAL) {
		if (poll(&p, 1, 20) == 0)
			continue;
		ssize_t n = read(fd, r, sizeof r);
		if (n < 0 && errno == EAGAIN)
			continue; /* another reader was faster */
		CHECK(n > 0);
		for (ssize_t i = 0; i < n / 128; i++) {
			int v = r[i].ssi_int, s = v / EACH;
			CHECK(r[i].ssi_signo == (uint32_t)SIGRTMIN + 1 && v >= 0 && v < TOTAL);
			CHECK(v > last[s]);
			last[s] = v;
			__atomic_add_fetch(&sh->seen[v], 1, __ATOMIC_SEQ_CST);
			__atomic_add_fetch(&sh->taken, 1, __ATOMIC_SEQ_CST);
		}
	}
	return 0;
}

int main(void)
{
	sigset_t mask = set_of(SIGRTMIN + 1);
	pid_t creator = getpid(), kids[SENDERS + READERS];
	struct shared *sh;
	int fd, k = 0;

	block_only(&mask);
	sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(sh != MAP_FAILED);
	fd = sigfd(&mask, SIGFD_SHARE | SIGFD_NONBLOCK);
	CHECK(fd >= 0);
	assert_kernel_fd(fd);
	for (int i = 0; i < READERS; i++, k++) {
		kids[k] = fork();
		CHECK(kids[k] >= 0);
		if (kids[k] == 0)
			_exit(reader(fd, sh));
	}
	for (int s = 0; s < SENDERS; s++, k++) {
		kids[k] = fork();
		CHECK(kids[k] >= 0);
		if (kids[k] == 0) {
			for (int i = 0; i < EACH; i++)
				while (sigqueue(creator, SIGRTMIN + 1, (union sigval){ .sival_int = s * EACH + i }) != 0) {
					CHECK(errno == EAGAIN);
					sched_yield();
				}
			_exit(0);
		}
	}
	CHECK(reader(fd, sh) == 0);
	for (int i = 0; i < k; i++)
		reap_ok(kids[i]);
	CHECK(sh->taken == TOTAL);
	for (int v = 0; v < TOTAL; v++)
		if (sh->seen[v] != 1) {
			fprintf(stderr, "value %d read %d times\n", v, sh->seen[v]);
			return 1;
		}
	CHECK(close(fd) == 0);
	return 0;
}
