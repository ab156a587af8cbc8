#!/bin/sh
# SPDX-License-Identifier: MIT
# sigfd-watch --trace as pid 1 of a PID namespace (a container): the
# kernel's trace events give the initial namespace's pids, none of which is
# ours or COMMAND's there, so it says on one line that --trace is not
# available and why, and runs COMMAND all the same. It said it was tracing
# pid 1's descendants and logged nothing (and a second such wrapper found
# the instance name sigfd-watch-1 taken). Needs root for the namespace.
# shellcheck source=tests/tools/watch_lib.inc
. "$(dirname "$0")/watch_lib.inc"
need_pid_namespace

status=0
# shellcheck disable=SC2086 # WRAP is a command line, split on purpose
unshare -pf $WRAP "$WATCH" -T -- sh -c 'exit 7' 2>"$dir/e" || status=$?
[ "$status" = 7 ] || fail "status $status, want COMMAND's 7: $(cat "$dir/e")"
want='sigfd-watch: --trace: not available (in a PID namespace of its own: '
grep -qF "$want" "$dir/e" || fail "no line saying why --trace is not available: $(cat "$dir/e")"
if grep -q 'tracing the signals' "$dir/e"; then
	fail "it says it traces: $(cat "$dir/e")"
fi
echo "watch_trace_pidns: --trace refused with its reason in a PID namespace, COMMAND run"
