#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the kernels CI's guest steps boot into the kernel cache, in the
# order the steps need them: 6.12 + series (make check's patched-kernel
# guest), then the two debug kernels (make kdebug-check, CI's last step).
# .ci/run starts it in the background at the lowest priority: the host
# passes leave a core idle much of the time, and a step that needs a
# kernel still being built waits on its lock, then finds it in the cache.
# A kernel already cached costs a key check; a failed build is reported
# and left to the step that needs it, which builds it again and fails
# there, with its log. Prints a line per kernel.
set -u
cd "$(dirname "$0")/.."

for k in 6.12 6.12-debug 6.1-debug; do
	t0=$(date +%s)
	flavour=
	case $k in *-debug) flavour=debug ;; esac
	if KPATCH_KERNEL=${k%-debug} KPATCH_FLAVOUR=$flavour KPATCH_NO_INSTALL=1 \
		sh kernel/run.sh --build >/dev/null; then
		echo "prebuild: $k in the cache ($(( $(date +%s) - t0 )) s)"
	else
		echo "prebuild: $k failed after $(( $(date +%s) - t0 )) s (its step builds it again)"
	fi
done
