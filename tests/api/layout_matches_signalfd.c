/* SPDX-License-Identifier: MIT */
/* struct sigfd_siginfo is Linux's struct signalfd_siginfo: same size (128),
 * and every field at the same offset with the same size and signedness,
 * checked at compile time and again at run time. Then one record read
 * through sigfd and one read through a raw signalfd for the same kind of
 * signal compare equal byte for byte. Uses only <sys/signalfd.h> names that
 * glibc and musl both have. */
#include <stddef.h>
#include <sys/signalfd.h>

#include "check.h"

#define FIELDS(X)                                                                          \
	X(ssi_signo) X(ssi_errno) X(ssi_code) X(ssi_pid) X(ssi_uid) X(ssi_fd) X(ssi_tid)       \
	X(ssi_band) X(ssi_overrun) X(ssi_trapno) X(ssi_status) X(ssi_int) X(ssi_ptr)           \
	X(ssi_utime) X(ssi_stime) X(ssi_addr) X(ssi_addr_lsb) X(ssi_syscall) X(ssi_call_addr) \
	X(ssi_arch)

#define SAME_OFFSET(f) \
	(offsetof(struct sigfd_siginfo, f) == offsetof(struct signalfd_siginfo, f))
#define SAME_SIZE(f) \
	(sizeof(((struct sigfd_siginfo *)0)->f) == sizeof(((struct signalfd_siginfo *)0)->f))

#define STATIC_SAME(f) _Static_assert(SAME_OFFSET(f) && SAME_SIZE(f), #f " differs");
FIELDS(STATIC_SAME)
_Static_assert(sizeof(struct sigfd_siginfo) == 128, "sigfd_siginfo is not 128 bytes");
_Static_assert(sizeof(struct signalfd_siginfo) == 128, "signalfd_siginfo is not 128 bytes");

static int mismatches;

#define RUNTIME_SAME(f)                                                                  \
	do {                                                                             \
		struct sigfd_siginfo a;                                                  \
		struct signalfd_siginfo b;                                               \
		a.f = 0;                                                                 \
		b.f = 0;                                                                 \
		a.f--;                                                                   \
		b.f--; /* all ones: negative only if signed */                           \
		if (!SAME_OFFSET(f) || !SAME_SIZE(f) || ((a.f > 0) != (b.f > 0))) {       \
			fprintf(stderr, "%s: offset %zu/%zu size %zu/%zu\n", #f,         \
				offsetof(struct sigfd_siginfo, f),                        \
				offsetof(struct signalfd_siginfo, f), sizeof a.f, sizeof b.f); \
			mismatches++;                                                    \
		}                                                                        \
	} while (0);

int main(void)
{
	FIELDS(RUNTIME_SAME)
	CHECK(mismatches == 0);
	CHECK(sizeof(struct sigfd_siginfo) == sizeof(struct signalfd_siginfo));
	CHECK(_Alignof(struct sigfd_siginfo) == _Alignof(struct signalfd_siginfo));

	/* The same record both ways: two identical sigqueue()s of one RT signal,
	 * the first read through a raw signalfd, the second through sigfd. */
	sigset_t set = set_of(SIGRTMIN);
	block_only(&set);
	int raw = signalfd(-1, &set, SFD_NONBLOCK);
	int fd = sigfd(&set, SIGFD_NONBLOCK);
	CHECK(raw >= 0 && fd >= 0);
	union sigval v = int_val(0x12345678);
	CHECK(sigqueue(getpid(), SIGRTMIN, v) == 0);
	CHECK(sigqueue(getpid(), SIGRTMIN, v) == 0);
	struct signalfd_siginfo k;
	struct sigfd_siginfo s;
	CHECK(read(raw, &k, sizeof k) == (ssize_t)sizeof k);
	CHECK(read(fd, &s, sizeof s) == (ssize_t)sizeof s);
	CHECK(memcmp(&k, &s, sizeof s) == 0);
	CHECK(s.ssi_signo == (uint32_t)SIGRTMIN && s.ssi_int == 0x12345678);
	CHECK(close(raw) == 0 && close(fd) == 0);
	return 0;
}
