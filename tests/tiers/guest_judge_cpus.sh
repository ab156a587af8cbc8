#!/bin/sh
# SPDX-License-Identifier: MIT
# build-independent: judges console logs of its own
# A guest whose kernel found fewer CPUs than QEMU was given fails, whatever
# its tests say: the races the suites look for need them all (a kernel
# without ACPI finds QEMU's CPUs only through the BIOS's MP table, which
# lists one CPU a socket: such a kernel passed its whole guest suite on one
# CPU of two, unnoticed). The same log with every CPU passes.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
top=$(cd "$(dirname "$0")/../.." && pwd)
# judge CPUS_SEEN: guest_judge's report on a guest given 2 CPUs that saw CPUS_SEEN.
judge() {
	echo 2 >"$tmp/cpus"
	echo 0 >"$tmp/qemu.rc"
	printf 'GUEST-BEGIN 6.12.1 cpus=%s init-at=1.0s\nGUEST-RESULT: share/a PASS 0.5s\nGUEST-END\n' "$1" >"$tmp/console.log"
	# shellcheck disable=SC1091
	(cd "$top" && out=$tmp sh -c '. kernel/guest/lib.sh; guest_judge sfd-creator 0')
}
judge 2 >"$tmp/report" || { cat "$tmp/report"; echo "a guest with both CPUs failed"; exit 1; }
if judge 1 >"$tmp/report"; then
	cat "$tmp/report"
	echo "a guest that found 1 CPU of 2 passed"
	exit 1
fi
grep -qx 'FAIL: the guest has cpus=1, 2 asked for' "$tmp/report" || { cat "$tmp/report"; echo "no line saying why"; exit 1; }
echo "guest_judge_cpus: 2 of 2 CPUs passes, 1 of 2 fails with its reason"
