# SPDX-License-Identifier: MIT
# The kernel-module tier (included by the top Makefile).
#   make kmod         build kmod/sigfd.ko against Debian's cloud kernel headers
#   make kmod-check   build it and the static guest programs, boot the cloud
#                     kernel under QEMU, run kmod/tests/*.c and tests/share_*.c
#                     with SIGFD_BACKEND=kernel; see kmod/guest-run.sh for the
#                     knobs (KVER, KMOD_ONLY, KMOD_EXTRA, KMOD_EXTRA_RUN, ...)
#   make kmod-check KMOD_KERNEL=backports
#                     the same on bookworm-backports' newest cloud kernel, for
#                     porting: 6.12 today, which sigfd.c refuses (see there)
.PHONY: kmod kmod-check
kmod:
	sh kmod/guest-run.sh --build

kmod-check:
	sh kmod/guest-run.sh

# The benchmark inside the guest: the kernel backend beside raw signalfd
# and the user-space share mode, in the same guest (issue 5's kernel row).
.PHONY: kmod-bench
kmod-bench: bench-static
	KMOD_ONLY=none KMOD_EXTRA=$(B)-static/bench/sigfd-bench \
	KMOD_EXTRA_RUN='sigfd-bench $(KMOD_BENCH_ARGS) --only signalfd,sigfd-local,sigfd-share,sigfd-kernel --out /tmp/bench' \
	sh kmod/guest-run.sh
