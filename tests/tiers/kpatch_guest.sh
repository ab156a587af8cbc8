#!/bin/sh
# SPDX-License-Identifier: MIT
# time-limit: 1800
# progress: shown
# run-apart: qemu the two guests (QEMU TCG, two vCPUs, 130% of a core
# each) run one after the other, so that each keeps the time its limits
# count on; host tests run beside them.
# The patched-kernel tier inside make check: runs kernel/run.sh (Linux 6.12
# with kernel/6.12/ applied, booted under QEMU) when everything it needs is
# installed; otherwise says so loudly and exits 77, which the runner counts
# as SKIPPED, never as a pass. Installs nothing (KPATCH_NO_INSTALL): CI
# installs the packages itself. The first run builds the kernel (about 10
# minutes on 2 cores); later runs, from any clone, reuse it from the kernel
# cache outside the tree (kernel/run.sh: SIGFD_KERNEL_CACHE).
cd "$(dirname "$0")/../.." || exit 1
# The guest builds its programs itself, so a second pass of the suite (another
# compiler, a sanitizer) would only repeat it: SIGFD_GUESTS=0 leaves it out.
# Whether another pass ran it is not known here: say what would run it.
if [ "${SIGFD_GUESTS:-1}" = 0 ]; then
	echo "SKIPPED: patched-kernel tier: SIGFD_GUESTS=0 is set; run it with make kpatch-check, or make check without SIGFD_GUESTS=0"
	exit 77
fi
missing=$(sh kernel/run.sh --missing)
if [ -n "$missing" ]; then
	echo "SKIPPED: patched-kernel tier: missing $missing; as root, make kpatch-check installs them and runs it"
	exit 77
fi
cache=$(sh kernel/run.sh --cache 2>/dev/null | sed -n '1s/^kernel cache: //p')
if ! apt-cache policy linux-source-6.12 2>/dev/null | grep -q 'Candidate: [0-9]' &&
	! ls "${cache:-/nonexistent}"/dl/linux-source-6.12_*.deb >/dev/null 2>&1; then
	echo "SKIPPED: patched-kernel tier: apt offers no linux-source-6.12; add bookworm-security to the apt sources, apt-get update, then make kpatch-check"
	exit 77
fi
KPATCH_NO_INSTALL=1 exec sh kernel/run.sh
