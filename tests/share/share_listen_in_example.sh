#!/bin/sh
# SPDX-License-Identifier: MIT
# examples/listen-in end to end: the listener prints the parent's five
# signals with the sender's pid, then end of file once the parent execs.
set -eu
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# Not under $WRAP: the example re-execs /proc/self/exe, which valgrind would be.
"$BUILD/examples/listen-in" >"$out"
cat "$out"
fail() { echo "FAIL: $*"; exit 1; }
sender=$(sed -n 's/^sender \([0-9]*\): sending five signals.*/\1/p' "$out")
[ -n "$sender" ] || fail "no sender line"
[ "$(grep -c "from pid $sender by" "$out")" -eq 5 ] || fail "expected 5 signals from pid $sender"
for v in 100 200 300; do
	grep -Eq "SIGRTMIN\+0 +from pid $sender by sigqueue, value $v\$" "$out" || fail "value $v"
done
grep -Eq "SIGUSR1 +from pid $sender by kill" "$out" || fail "SIGUSR1"
grep -Eq "SIGUSR2 +from pid $sender by kill" "$out" || fail "SIGUSR2"
# The three RT values in the order they were sent.
[ "$(grep -o 'value [0-9]*' "$out" | tr '\n' ' ')" = "value 100 value 200 value 300 " ] || fail "RT order"
grep -q "end of file: pid [0-9]* has exec'd" "$out" || fail "no end of file"
grep -q "running a new program image now" "$out" || fail "the exec did not happen"
