#!/bin/sh
# SPDX-License-Identifier: MIT
# build-independent: drives kernel/kdebug.sh with stand-in guests
# make kdebug-check (kernel/kdebug.sh) runs its two debug guests side by
# side: here stand-ins for kernel/run.sh and kmod/guest-run.sh each wait,
# bounded, for the other to start. Each guest's report comes out whole, in
# the order 6.12 then 6.1, then a verdict line each; a guest that fails
# fails the whole. KDEBUG_JOBS=1 runs them one after the other (the first
# then waits in vain).
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$tmp/kernel" "$tmp/kmod"
cp "$top/kernel/kdebug.sh" "$tmp/kernel/"
# stand_in ME OTHER VERDICT: says it started, waits up to 5 s for OTHER.
stand_in() {
	printf '%s\n' '[ "${1:-}" != --status ] || { echo "hit k1 /cache/k1"; exit 0; }' \
		"touch $tmp/$1.on" \
		"timeout 5 sh -c 'until [ -e $tmp/$2.on ]; do sleep 0.01; done' || { echo '$1: $2 never ran beside'; exit 1; }" \
		"echo '$1 report line 1'; echo '$1 report line 2'; exit $3"
}
stand_in kpatch kmod 0 >"$tmp/kernel/run.sh"
stand_in kmod kpatch 0 >"$tmp/kmod/guest-run.sh"
rc=0
sh "$tmp/kernel/kdebug.sh" >"$tmp/out" 2>"$tmp/err" || rc=$?
printf '%s\n' 'kpatch report line 1' 'kpatch report line 2' 'kmod report line 1' 'kmod report line 2' \
	'kdebug: PASS 6.12 + kernel/6.12/ (0 s, cache hit, key k1)' \
	'kdebug: PASS 6.1 + kmod/sigfd.ko (0 s, cache hit, key k1)' >"$tmp/want"
sed -i 's/ ([0-9]* s,/ (0 s,/' "$tmp/out"
[ $rc -eq 0 ] && cmp -s "$tmp/want" "$tmp/out" ||
	{ cat "$tmp/err"; diff "$tmp/want" "$tmp/out"; echo "kdebug.sh side by side: exit $rc"; exit 1; }

# One failing guest fails the run; its report still comes out whole.
rm -f "$tmp"/*.on
stand_in kmod kpatch 3 >"$tmp/kmod/guest-run.sh"
rc=0
sh "$tmp/kernel/kdebug.sh" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ $rc -eq 1 ] && grep -qx 'kmod report line 2' "$tmp/out" && grep -q '^kdebug: FAIL 6.1 + kmod/sigfd.ko ' "$tmp/out" &&
	grep -q '^kdebug: PASS 6.12 ' "$tmp/out" || { cat "$tmp/err" "$tmp/out"; echo "a failing guest: exit $rc"; exit 1; }

# KDEBUG_JOBS=1: one after the other, so the first waits in vain.
rm -f "$tmp"/*.on
stand_in kmod kpatch 0 >"$tmp/kmod/guest-run.sh"
rc=0
KDEBUG_JOBS=1 sh "$tmp/kernel/kdebug.sh" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ $rc -eq 1 ] && grep -qx 'kpatch: kmod never ran beside' "$tmp/out" ||
	{ cat "$tmp/err" "$tmp/out"; echo "KDEBUG_JOBS=1: exit $rc"; exit 1; }
