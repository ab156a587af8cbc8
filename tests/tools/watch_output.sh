#!/bin/sh
# SPDX-License-Identifier: MIT
# Where sigfd-watch's log goes:
#  - with a COMMAND, by default on standard error, so COMMAND's standard
#    output is its own, untouched;
#  - -o FILE: appended to FILE (standard output and error keep only
#    COMMAND's output and the two lines of sigfd-watch's start);
#  - -o -: standard output (the default without a COMMAND, also with -o);
#  - -q: nothing at all but COMMAND's output.
# shellcheck source=tests/tools/watch_lib.inc
. "$(dirname "$0")/watch_lib.inc"

# lines FILE: how many lines.
lines() { wc -l <"$1" | tr -d ' '; }

status=0
"$WATCH" -- sh -c 'echo out; exit 2' >"$dir/o" 2>"$dir/e" || status=$?
[ $status = 2 ] || fail "default: status $status, want 2"
[ "$(cat "$dir/o")" = out ] || fail "default: stdout is not COMMAND's alone: $(cat "$dir/o")"
[ "$(lines "$dir/e")" = 3 ] || fail "default: stderr: $(cat "$dir/e")"
line=$(sed -n 3p "$dir/e")
expect_text SIGCHLD child-exited status=2

for run in 1 2; do
	status=0
	"$WATCH" -o "$dir/log" -- sh -c 'echo out; exit 2' >"$dir/o" 2>"$dir/e" || status=$?
	[ $status = 2 ] || fail "-o FILE: status $status, want 2"
	[ "$(cat "$dir/o")" = out ] || fail "-o FILE: stdout: $(cat "$dir/o")"
	[ "$(lines "$dir/e")" = 2 ] || fail "-o FILE: stderr: $(cat "$dir/e")"
	grep -q "^sigfd-watch: running pid " "$dir/e" || fail "-o FILE: no running line"
	[ "$(lines "$dir/log")" = $run ] || fail "-o FILE, run $run: log: $(cat "$dir/log")"
	line=$(sed -n "${run}p" "$dir/log")
	expect_text SIGCHLD child-exited status=2
done

"$WATCH" -o - -- sh -c 'echo out' >"$dir/o" 2>"$dir/e"
[ "$(lines "$dir/o")" = 2 ] && [ "$(sed -n 1p "$dir/o")" = out ] ||
	fail "-o -: stdout: $(cat "$dir/o")"
line=$(sed -n 2p "$dir/o")
expect_text SIGCHLD child-exited status=0
[ "$(lines "$dir/e")" = 2 ] || fail "-o -: stderr: $(cat "$dir/e")"

status=0
"$WATCH" -q -- sh -c 'echo out; echo err >&2; exit 4' >"$dir/o" 2>"$dir/e" || status=$?
[ $status = 4 ] || fail "-q: status $status, want 4"
[ "$(cat "$dir/o")" = out ] && [ "$(cat "$dir/e")" = err ] ||
	fail "-q: stdout: $(cat "$dir/o"), stderr: $(cat "$dir/e")"
# An error is still said under -q.
status=0
"$WATCH" -q -- /nonexistent/command 2>"$dir/e" || status=$?
[ $status = 127 ] || fail "-q, not found: status $status, want 127"
grep -q "^sigfd-watch: cannot run '/nonexistent/command'" "$dir/e" || fail "-q: error not said"

# Without a COMMAND, -o FILE takes the lines from standard output.
rm -f "$dir/log"
start_watch -c 1 -t 60 -o "$dir/log" USR1
kill -USR1 "$wpid"
finish 0
line=$(cat "$dir/log")
expect_text SIGUSR1 kill pid=$$

# A log that cannot be opened is an error, before COMMAND runs.
status=0
"$WATCH" -o "$dir/no/such/dir/log" -- sh -c 'echo ran' >"$dir/o" 2>"$dir/e" || status=$?
[ $status = 125 ] || fail "bad -o: status $status, want 125"
[ ! -s "$dir/o" ] || fail "bad -o: COMMAND ran"
grep -q "^sigfd-watch: cannot open log '$dir/no/such/dir/log': " "$dir/e" || fail "bad -o: $(cat "$dir/e")"

echo "$test_name: ok"
