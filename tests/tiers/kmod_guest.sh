#!/bin/sh
# SPDX-License-Identifier: MIT
# time-limit: 900
# progress: shown
# run-apart: qemu the two guests (QEMU TCG, two vCPUs, 130% of a core
# each) run one after the other, so that each keeps the time its limits
# count on; host tests run beside them.
# The kernel-module tier inside make check: runs kmod/guest-run.sh when
# everything it needs is installed; otherwise says so loudly and exits 77,
# which the runner counts as SKIPPED, never as a pass. Installs nothing
# (KMOD_NO_INSTALL): CI installs the packages itself.
cd "$(dirname "$0")/../.." || exit 1
# The guest builds its programs itself, so a second pass of the suite (another
# compiler, a sanitizer) would only repeat it: SIGFD_GUESTS=0 leaves it out.
# Whether another pass ran it is not known here: say what would run it.
if [ "${SIGFD_GUESTS:-1}" = 0 ]; then
	echo "SKIPPED: kernel-module tier: SIGFD_GUESTS=0 is set; run it with make kmod-check, or make check without SIGFD_GUESTS=0"
	exit 77
fi
missing=$(sh kmod/guest-run.sh --missing)
if [ -n "$missing" ]; then
	echo "SKIPPED: kernel-module tier: missing $missing; as root, make kmod-check installs them and runs it"
	exit 77
fi
KMOD_NO_INSTALL=1 exec sh kmod/guest-run.sh
