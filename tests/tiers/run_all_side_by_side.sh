#!/bin/sh
# SPDX-License-Identifier: MIT
# build-independent: drives the runner with a tree of its own
# tests/run-all runs TEST_JOBS tests side by side: two tests that each wait
# for the other to start both pass with TEST_JOBS=2; with TEST_JOBS=1 the
# first fails, waiting in vain. A test with a comment line
# "run-alone: REASON" runs with no other beside it, after the others: the
# plain test looks for it while it runs and must not find it. Tests with
# a comment line "run-apart: GROUP REASON" run one after the other, and
# beside the rest.
# Each wait is bounded (5 s) so that a runner that breaks fails, not hangs.
set -eu
# The runner under test runs every test it is given, whatever our own run selected.
unset ONLY
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$tmp/tests/t" "$tmp/b/tests"
cp "$top/tests/run-all" "$top/tests/hang-report" "$top/tests/known.inc" "$tmp/tests/"
echo 't host' >"$tmp/tests/folders"
: >"$tmp/tests/known-differences"
# waits_for ME OTHER: a test that says it runs, then waits for OTHER's word.
waits_for() {
	printf '%s\n' "touch ../$1.on" \
		"timeout 5 sh -c 'until [ -e ../$2.on ]; do sleep 0.01; done' || { echo '$2 never ran beside $1'; exit 1; }" \
		>"$tmp/tests/t/$1.sh"
}
waits_for left right
waits_for right left
mkdir "$tmp/w"
(cd "$tmp/w" && BUILD=../b TEST_JOBS=2 TEST_TIMEOUT=30 sh ../tests/run-all >../out 2>&1) ||
	{ cat "$tmp/out"; echo "run-all, 2 at a time: the two did not run side by side"; exit 1; }
grep -q '^PASS left ' "$tmp/out" && grep -q '^PASS right ' "$tmp/out" &&
	head -n 1 "$tmp/out" | grep -q '^run-all: 2 runs, 2 at a time;' || { cat "$tmp/out"; exit 1; }
# The check itself: one at a time, the first waits in vain.
rm -f "$tmp"/*.on
(cd "$tmp/w" && BUILD=../b TEST_JOBS=1 TEST_TIMEOUT=30 sh ../tests/run-all >../out 2>&1) &&
	{ cat "$tmp/out"; echo "one at a time, yet each found the other running"; exit 1; }
grep -q '^FAIL left ' "$tmp/out" || { cat "$tmp/out"; exit 1; }

# An alone test (listed first) starts only once the plain one has ended:
# the plain one waits, bounded, for a sign of it and must see none.
rm -f "$tmp"/tests/t/*.sh "$tmp"/*.on
printf '# run-%s: a test of the runner\ntouch ../alone.on\n[ -e ../plain.done ] || { echo "started before plain ended"; exit 1; }\n' \
	alone >"$tmp/tests/t/a_alone.sh"
printf '%s\n' "touch ../plain.on" \
	"! timeout 3 sh -c 'until [ -e ../alone.on ]; do sleep 0.01; done' || { echo 'alone ran beside plain'; exit 1; }" \
	"touch ../plain.done" >"$tmp/tests/t/plain.sh"
(cd "$tmp/w" && BUILD=../b TEST_JOBS=2 TEST_TIMEOUT=30 sh ../tests/run-all >../out 2>&1) ||
	{ cat "$tmp/out"; echo "run-all ran the run-alone test beside another"; exit 1; }
sed -n 2,3p "$tmp/out" | tr '\n' ' ' | grep -q '^PASS plain .*PASS a_alone ' || { cat "$tmp/out"; echo "not plain, then alone"; exit 1; }

# Two tests of a run-apart group run one after the other, and beside the
# rest: the first sees the plain test start and never the second.
rm -f "$tmp"/tests/t/*.sh "$tmp"/*.on "$tmp"/*.done
printf '%s\n' "# run-apart: g a test of the runner" "touch ../g1.on" \
	"! timeout 3 sh -c 'until [ -e ../g2.on ]; do sleep 0.01; done' || { echo 'g2 ran beside g1'; exit 1; }" \
	"timeout 5 sh -c 'until [ -e ../p.on ]; do sleep 0.01; done' || { echo 'p never ran beside g1'; exit 1; }" \
	"touch ../g1.done" >"$tmp/tests/t/g1.sh"
printf '%s\n' "# run-apart: g a test of the runner" "touch ../g2.on" \
	"[ -e ../g1.done ] || { echo 'g2 started before g1 ended'; exit 1; }" >"$tmp/tests/t/g2.sh"
echo "touch ../p.on" >"$tmp/tests/t/p.sh"
(cd "$tmp/w" && BUILD=../b TEST_JOBS=2 TEST_TIMEOUT=30 sh ../tests/run-all >../out 2>&1) ||
	{ cat "$tmp/out"; echo "run-all: a run-apart group ran side by side, or apart from the rest"; exit 1; }
grep -c '^PASS ' "$tmp/out" | grep -qx 3 || { cat "$tmp/out"; exit 1; }
