#!/bin/sh
# SPDX-License-Identifier: MIT
# The debug-kernel tier (make kdebug-check): the two kernel backends under
# KASAN (generic, inline), lockdep (PROVE_LOCKING, PROVE_RCU), debug objects,
# DEBUG_LIST, DEBUG_ATOMIC_SLEEP, PREEMPT, hung-task and soft-lockup
# detection (kernel/config.debug), each booted under QEMU (TCG, 1 GiB,
# kasan_multi_shot) with its whole guest suite and the race-stress
# programs of kernel/stress/ (suite "stress"):
#   6.12  Debian's linux-source-6.12 with the series kernel/6.12/
#         (kernel/run.sh, KPATCH_FLAVOUR=debug)
#   6.1   Debian's linux-source-6.1, kmod/sigfd.ko built against its tree
#         and loaded (kmod/guest-run.sh, KMOD_KERNEL=debug)
#   7.3   not by default (make kdebug-check-7.3, outside CI: a cold debug
#         build of 7.3 takes long here): trixie-backports' linux-source-7.3
#         with the series kernel/7.3/, the same options
# A guest fails on a failed test and on any kernel report in its dmesg
# (KASAN, lockdep, BUG:, WARNING:, ODEBUG, RCU stall, hung task), each put
# down to the test it came in. Both kernels are kept in the kernel cache
# outside the work tree, shared by every checkout (SIGFD_KERNEL_CACHE, by
# default /var/cache/sigfd-kernels/6.12-debug/ and 6.1-debug/, the latter
# with its build tree), under a key of the source version, the series and
# the option set (kernel/run.sh); each step first says "cache hit" or
# "cold build" and the key.
#
#   sh kernel/kdebug.sh            build (or reuse) both kernels, run both guests
#   sh kernel/kdebug.sh --missing  print the missing host packages, exit 1 if any
#
# Environment: KDEBUG_ONLY='6.12 6.1' which guests (7.3 too, on request); the knobs of
# kernel/run.sh (KPATCH_*) and kmod/guest-run.sh (KMOD_*) pass through, for
# example KPATCH_ONLY='stress/*' or KMOD_STRESS_SECONDS=60.
set -eu
cd "$(dirname "$0")/.."

stage() { printf 'kdebug: [%s] %s\n' "$(date -u +%T)" "$*" >&2; }

case ${1:-run} in
--missing)
	m=$({
		KPATCH_KERNEL=6.12 sh kernel/run.sh --missing
		KMOD_KERNEL=debug sh kmod/guest-run.sh --missing
	} | tr ' ' '\n' | awk 'NF && !seen[$0]++' | tr '\n' ' ' | sed 's/ $//')
	[ -n "$m" ] && { echo "$m"; exit 1; }
	exit 0 ;;
run) ;;
*) echo "usage: $0 [--missing]" >&2; exit 2 ;;
esac

# The guests run side by side (KDEBUG_JOBS=1: one after the other): each
# keeps QEMU at about 130% of a core, so two together take about the time of
# the longer, not of both. A line for each guest test as it ends
# (kernel/guest/lib.sh, on stderr, "kpatch:" or "kmod:" first); each
# guest's report (stdout) is printed whole once it has ended.
for k in ${KDEBUG_ONLY:-6.12 6.1}; do
	case $k in 6.12|6.1|7.3) ;; *) echo "kdebug: KDEBUG_ONLY: 6.12, 6.1 and/or 7.3" >&2; exit 2 ;; esac
done
reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT
for k in ${KDEBUG_ONLY:-6.12 6.1}; do
	# What kernel/run.sh will find in the cache: "hit KEY ENTRY" or "cold ...".
	st=$(KPATCH_KERNEL=$k KPATCH_FLAVOUR=debug sh kernel/run.sh --status) || st=
	# shellcheck disable=SC2086 # three words
	set -- ${st:-unknown - -}
	case $1 in hit) cache="cache hit, key $2" ;; cold) cache="cold build, key $2" ;; *) cache="cache: $*" ;; esac
	case $k in
	6.1) what="6.1 + kmod/sigfd.ko" module=" and module" ;;
	*) what="$k + kernel/$k/" module= ;;
	esac
	stage "$what: debug kernel ($cache: $3)$module, then its guest"
	(
		t0=$(date +%s)
		if [ "$k" = 6.1 ]; then
			KMOD_KERNEL=debug sh kmod/guest-run.sh && verdict=PASS || verdict=FAIL
		else
			KPATCH_KERNEL=$k KPATCH_FLAVOUR=debug sh kernel/run.sh && verdict=PASS || verdict=FAIL
		fi
		echo "kdebug: $verdict $what ($(( $(date +%s) - t0 )) s, $cache)" >"$reports/$k.verdict"
	) >"$reports/$k.out" &
	[ "${KDEBUG_JOBS:-2}" != 1 ] || wait $!
done
wait
status=0 summary=
for k in ${KDEBUG_ONLY:-6.12 6.1}; do
	cat "$reports/$k.out"
	verdict=$(cat "$reports/$k.verdict" 2>/dev/null) || verdict="kdebug: FAIL $k (no verdict)"
	case $verdict in "kdebug: PASS "*) ;; *) status=1 ;; esac
	summary="$summary
$verdict"
done
printf '%s\n' "${summary#?}"
exit $status
