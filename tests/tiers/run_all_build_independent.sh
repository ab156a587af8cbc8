#!/bin/sh
# SPDX-License-Identifier: MIT
# build-independent: drives the runner with a tree of its own
# A shell test with a line "# build-independent: REASON" runs in the plain
# pass (build directory cc or gcc, no valgrind) and in every other pass is
# SKIPPED with its reason, never counted as passed; a test without the line
# runs in every pass.
set -eu
# The runner under test runs every test it is given, whatever our own run selected.
unset ONLY
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$tmp/tests/t"
cp "$top/tests/run-all" "$top/tests/hang-report" "$top/tests/known.inc" "$tmp/tests/"
echo 't host' >"$tmp/tests/folders"
: >"$tmp/tests/known-differences"
# (The line written apart, so that this file itself does not hold it twice.)
printf '# build-independent: %s\n' 'reads nothing' >"$tmp/tests/t/once.sh"
echo 'echo ran >>ran.once' >>"$tmp/tests/t/once.sh"
echo 'echo ran >>ran.every' >"$tmp/tests/t/every.sh"

# pass BUILD VALGRIND: run the runner as that pass; its output in $tmp/out.
pass() {
	rm -f "$tmp/ran.once" "$tmp/ran.every"
	(cd "$tmp" && BUILD=build/$1 VALGRIND=$2 TEST_TIMEOUT=30 sh tests/run-all >out 2>&1) ||
		{ cat "$tmp/out"; echo "run-all failed as build/$1${2:+ with valgrind}"; exit 1; }
	[ -s "$tmp/ran.every" ] || { cat "$tmp/out"; echo "build/$1: the plain test did not run"; exit 1; }
}
for b in cc gcc; do
	pass $b ''
	[ -s "$tmp/ran.once" ] && grep -q '^PASS once ' "$tmp/out" ||
		{ cat "$tmp/out"; echo "build/$b: the build-independent test did not run"; exit 1; }
done
for v in 'clang ' 'cc-address-undefined ' 'coverage ' 'cc 1'; do
	b=${v% *}
	pass "$b" "${v#* }"
	[ ! -e "$tmp/ran.once" ] || { cat "$tmp/out"; echo "build/$b: the build-independent test ran"; exit 1; }
	grep -q '^SKIPPED once: SKIPPED: build-independent (reads nothing): the plain pass runs it' "$tmp/out" &&
		grep -q '^1 SKIPPED (not counted as passed)' "$tmp/out" && grep -q '^1 passed, 0 failed' "$tmp/out" ||
		{ cat "$tmp/out"; echo "build/$b: no SKIPPED line with the reason"; exit 1; }
done
echo "run_all_build_independent: runs in build/cc and build/gcc, SKIPPED with its reason in 4 other passes"
