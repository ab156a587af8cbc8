#!/bin/sh
# SPDX-License-Identifier: MIT
# --help and --version to a standard output that cannot be written
# (/dev/full): each tool says so on standard error, naming the problem, and
# exits with its status for that (sigfd-watch 3, a system error; sigfd-send
# 1, as for a signal it could not send), never 0 and never in silence.
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "tools_full_stdout: $*"; exit 1; }

for run in "sigfd-watch 3" "sigfd-send 1"; do
	tool=${run% *} want=${run#* }
	for opt in --help --version; do
		status=0
		# shellcheck disable=SC2086 # WRAP is a command line, split on purpose
		${WRAP:-} "$BUILD/bin/$tool" $opt >/dev/full 2>"$dir/e" || status=$?
		[ "$status" = "$want" ] || fail "$tool $opt >/dev/full: status $status, want $want"
		grep -q "^$tool: standard output: No space left on device\$" "$dir/e" ||
			fail "$tool $opt >/dev/full: no message naming the problem: $(cat "$dir/e")"
	done
done
echo "tools_full_stdout: both tools, --help and --version"
