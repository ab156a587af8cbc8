#!/bin/sh
# SPDX-License-Identifier: MIT
# build-independent: asks the runners what they would run
# Every entry of tests/known-differences names a backend and a run that
# backend's runner makes, so a renamed test cannot leave its entry behind
# (the new name would fail, the old entry would excuse nothing): local, a
# host run NAME; thread, a host run NAME[share] or an outside suite's
# NAME[share]; module and sfd-creator, a guest program FOLDER/NAME of
# kmod/guest-run.sh and kernel/run.sh, whose shape is "any" (the guests
# judge by verdict alone). Each entry has four fields and a reason.
set -u
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sh tests/run-all --list >"$tmp/host" || exit 1
sh kmod/guest-run.sh --list >"$tmp/module" || exit 1
sh kernel/run.sh --list >"$tmp/sfd-creator" || exit 1
# The outside suites' runs (tests/tiers/outside_suites.sh).
for r in test-event test-udev-event stress-ng-sigfd; do
	echo "${r}[local] outside"
	echo "${r}[share] outside"
done >"$tmp/outside"
awk -v tmp="$tmp" '
FILENAME != "tests/known-differences" { runs[FILENAME, $1] = 1; next }
/^#/ || !NF { next }
{
	n = split($0, f, / [|] /)
	where = "tests/known-differences:" FNR ": "
	if (n < 4 || f[4] == "") { print where "not BACKEND | RUN | SHAPE | REASON"; bad = 1; next }
	host = tmp "/host"; outside = tmp "/outside"
	if (f[1] == "local")
		ok = (host, f[2]) in runs && f[2] !~ /\[share\]$/ || (outside, f[2]) in runs && f[2] ~ /\[local\]$/
	else if (f[1] == "thread")
		ok = f[2] ~ /\[share\]$/ && ((host, f[2]) in runs || (outside, f[2]) in runs)
	else if (f[1] == "module" || f[1] == "sfd-creator") {
		ok = (tmp "/" f[1], f[2]) in runs
		if (f[3] != "any") { print where "a guest entry takes shape \"any\""; bad = 1 }
	} else { print where "unknown backend " f[1]; bad = 1; next }
	if (!ok) { print where "backend " f[1] " makes no run " f[2]; bad = 1 }
}
END { exit bad }' "$tmp/host" "$tmp/module" "$tmp/sfd-creator" "$tmp/outside" tests/known-differences
