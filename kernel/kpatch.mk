# SPDX-License-Identifier: MIT
# The patched-kernel tier (included by the top Makefile): kernel/<version>/
# is a patch series adding SFD_CREATOR to fs/signalfd.c; see docs/kernel.md.
#   make kpatch            fetch Debian's linux-source-6.12, apply the series,
#                          build the guest kernel (cached by series + config
#                          outside the work tree: /var/cache/sigfd-kernels,
#                          SIGFD_KERNEL_CACHE; see kernel/run.sh)
#   make kpatch-check      that, then boot it under QEMU and run the series'
#                          selftest, tests/share/ and the module tests in
#                          kernel/kmod-tests, all with SIGFD_BACKEND=native
#   make kpatch-check KPATCH_KERNEL=7.3   the same on trixie-backports' 7.3
#                          with the rebased series in kernel/7.3/
#   make kpatch-bench      sigfd-bench in that guest: native share mode beside
#                          raw signalfd (and the other library modes)
#   make kdebug-check      the debug-kernel tier: 6.12 + series and 6.1 + the
#                          module under KASAN, lockdep and debug objects, the
#                          guest suites plus kernel/stress/ (kernel/kdebug.sh)
#   make kdebug-check-7.3  the 7.3 series under the same debug options (not
#                          in CI: a cold debug build of 7.3 takes long here)
#   make kcsan-check       6.12 + series under KCSAN (kernel/config.kcsan,
#                          a build of its own: KCSAN excludes KASAN); not in CI
#   make kcache            the kernel cache's directory and its entries (key,
#                          last use, size, build times)
#   make kcache-clean      empty the kernel cache (make clean leaves it alone:
#                          it is shared by every checkout and CI's clones)
# Knobs: see kernel/run.sh (KPATCH_ONLY, KPATCH_SMP, KPATCH_JOBS, ...).
.PHONY: kpatch kpatch-check kpatch-bench kdebug-check kdebug-check-7.3 kcsan-check kcache kcache-clean
kpatch:
	sh kernel/run.sh --build

kpatch-check:
	sh kernel/run.sh

kdebug-check:
	sh kernel/kdebug.sh

kdebug-check-7.3:
	KDEBUG_ONLY=7.3 sh kernel/kdebug.sh

kcsan-check:
	KPATCH_FLAVOUR=kcsan sh kernel/run.sh

kcache:
	sh kernel/run.sh --cache

kcache-clean:
	sh kernel/run.sh --cache-clean

kpatch-bench: bench-static
	KPATCH_ONLY=none KPATCH_EXTRA=$(B)-static/bench/sigfd-bench \
	KPATCH_EXTRA_RUN='sigfd-bench $(KPATCH_BENCH_ARGS) --only signalfd,sigfd-local,sigfd-share,sigfd-native --out /tmp/bench' \
	sh kernel/run.sh
