# SPDX-License-Identifier: MIT
# The kernel-module tier (included by the top Makefile).
#   make kmod         build kmod/sigfd.ko against Debian's cloud kernel headers
#   make kmod-check   build it and the static guest programs, boot the cloud
#                     kernel under QEMU, run kmod/tests/*.c and tests/share/share_*.c
#                     with SIGFD_BACKEND=kernel; see kmod/guest-run.sh for the
#                     knobs (KVER, KMOD_ONLY, KMOD_EXTRA, KMOD_EXTRA_RUN, ...)
#   make kmod-check KMOD_KERNEL=backports
#                     the same on bookworm-backports' newest cloud kernel, for
#                     porting: 6.12 today, which sigfd.c refuses (see there)
#   make kmod-m2-check
#                     suite "m2" alone: issue 16's M-2 race with its window
#                     widened, on test builds of the module (kmod/guest-m2.sh)
#   make kmod-rt-check
#                     the module's own tests (suites "kmod", "end") on
#                     Debian's 6.1 PREEMPT_RT kernel, where a held siglock
#                     does not disable preemption
.PHONY: kmod kmod-check kmod-m2-check kmod-rt-check
kmod:
	sh kmod/guest-run.sh --build

kmod-check:
	sh kmod/guest-run.sh

kmod-m2-check:
	KMOD_ONLY='m2/*' sh kmod/guest-run.sh

kmod-rt-check:
	KMOD_KERNEL=rt KMOD_ONLY='kmod/* end/*' sh kmod/guest-run.sh

# The benchmark inside the guest: the kernel backend beside raw signalfd
# and the user-space share mode, in the same guest (issue 5's kernel row);
# then what one signal costs its sender by the creator's descriptor count
# (1 against 10,000 and 100,000, as a ratio), what a busy creator's SIGCHLDs
# cost a bystander's fork+exit+wait by that count, and the slab a held descriptor
# of a reaped creator costs, from the module's own test programs.
.PHONY: kmod-bench
kmod-bench: bench-static
	KMOD_ONLY=none KMOD_EXTRA=$(B)-static/bench/sigfd-bench \
	KMOD_EXTRA_RUN='sigfd-bench $(KMOD_BENCH_ARGS) --only signalfd,sigfd-local,sigfd-share,sigfd-kernel --out /tmp/bench; /t/kmod/signal_cost_by_fds 0 1 1000 1024; /t/kmod/sigchld_stall_by_fds 0 1 1024; /t/kmod/dead_creator_slab' \
	KMOD_MEM=1024 KMOD_TIMEOUT=$${KMOD_TIMEOUT:-1500} KMOD_EXTRA_TIMEOUT=$${KMOD_EXTRA_TIMEOUT:-1400} \
	sh kmod/guest-run.sh
