#!/bin/sh
# SPDX-License-Identifier: MIT
# --help and --version to a standard output that cannot be written
# (/dev/full): each tool says so on standard error, naming the problem, and
# exits with its status for that (sigfd-watch 3, a system error; sigfd-send
# 1, as for a signal it could not send), never 0 and never in silence.
# The same for sigfd-watch watching with standard output closed.
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
# sigfd-watch watching with standard output closed: the same status at
# once, not its sigfd given number 1 and the log written into it (EINVAL
# at the first signal).
status=0
# shellcheck disable=SC2086
${WRAP:-} "$BUILD/bin/sigfd-watch" -t 0 USR1 >&- 2>"$dir/e" || status=$?
[ "$status" = 3 ] || fail "sigfd-watch with stdout closed: status $status, want 3"
grep -q '^sigfd-watch: standard output: Bad file descriptor$' "$dir/e" ||
	fail "sigfd-watch with stdout closed: no message naming the problem: $(cat "$dir/e")"
echo "tools_full_stdout: both tools, --help and --version; sigfd-watch's closed stdout"
