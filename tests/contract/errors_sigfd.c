/* SPDX-License-Identifier: MIT */
/* sigfd() rejects what it does not understand with EINVAL and creates no
 * descriptor: any flag bit other than SIGFD_NONBLOCK|SIGFD_CLOEXEC|
 * SIGFD_SHARE (O_NONBLOCK/O_CLOEXEC passed by mistake included), and a NULL
 * mask. */
#include <fcntl.h>
#include <limits.h>

#include "check.h"

static void rejects(const sigset_t *mask, unsigned long flags)
{
	errno = 0;
	if (sigfd(mask, flags) != -1 || errno != EINVAL) {
		fprintf(stderr, "sigfd(%p, %#lx) did not fail with EINVAL (errno %d)\n",
			(const void *)mask, flags, errno);
		exit(1);
	}
}

int main(void)
{
	sigset_t set = set_of(SIGUSR1);
	block_only(&set);
	int before = lowest_free_fd();

	/* Every unknown bit, alone and alongside the valid flags. */
	const unsigned long known = SIGFD_NONBLOCK | SIGFD_CLOEXEC | SIGFD_SHARE;
	for (unsigned bit = 0; bit < sizeof(unsigned long) * CHAR_BIT; bit++) {
		unsigned long f = 1UL << bit;
		if (f & known)
			continue;
		rejects(&set, f);
		rejects(&set, f | SIGFD_NONBLOCK | SIGFD_CLOEXEC);
	}
	rejects(&set, ~0UL);
	rejects(&set, (unsigned long)O_NONBLOCK);
	rejects(&set, (unsigned long)O_CLOEXEC);

	/* NULL mask, with any flags, valid or not. */
	rejects(NULL, 0);
	rejects(NULL, SIGFD_NONBLOCK | SIGFD_CLOEXEC);
	rejects(NULL, 0x100);

	CHECK(lowest_free_fd() == before);

	/* And the valid combinations still work. */
	for (unsigned long f = 0; f <= (SIGFD_NONBLOCK | SIGFD_CLOEXEC); f++) {
		int fd = sigfd(&set, f | test_mode());
		CHECK(fd >= 0);
		CHECK(close(fd) == 0);
	}
	return 0;
}
