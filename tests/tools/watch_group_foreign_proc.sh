#!/bin/sh
# SPDX-License-Identifier: MIT
# sigfd-watch --group as pid 1 of a PID namespace made without a /proc of
# its own (unshare -pf): a queued signal (sigqueue, with a value) sent to
# sigfd-watch still reaches COMMAND's group. Its members are found through
# /proc, which lists the parent namespace's processes there: none matched,
# and the signal was dropped without a word. Now it goes as a plain signal
# and a line says the value could not follow. Needs root for the namespace.
# shellcheck source=tests/tools/watch_lib.inc
. "$(dirname "$0")/watch_lib.inc"
need_pid_namespace
mkfifo "$dir/ready"

# COMMAND: says it is ready through the fifo, then waits for SIGUSR1 (exit
# 0), at most 20 s (exit 9).
# shellcheck disable=SC2016,SC2086 # expanded by COMMAND's shell; WRAP split on purpose
unshare -pf $WRAP "$WATCH" -g -q -- sh -c '
	trap "exit 0" USR1
	echo ready >"$1"
	sleep 20 & wait $!
	exit 9' sh "$dir/ready" 2>"$dir/e" &
job=$!
read -r line <"$dir/ready"
[ "$line" = ready ] || fail "COMMAND did not start"
wrapper=$(pgrep -P "$job")
[ -n "$wrapper" ] || fail "no sigfd-watch under unshare"
"$SEND" -q 42 USR1 "$wrapper"
status=0
wait "$job" || status=$?
[ "$status" = 0 ] || fail "COMMAND never got SIGUSR1 (status $status): $(cat "$dir/e")"
grep -q -- '--group: /proc is not this PID namespace' "$dir/e" ||
	fail "no line saying the value could not follow: $(cat "$dir/e")"
echo "watch_group_foreign_proc: the queued signal reached the group, its loss of value said"
