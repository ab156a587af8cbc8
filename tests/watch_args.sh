#!/bin/sh
# SPDX-License-Identifier: MIT
# sigfd-watch's command line: every bad argument gives status 2 and exactly
# one line on stderr naming the problem; --help gives usage and 0; signal
# names are taken in every documented spelling. sigfd-send's too.
# shellcheck source=tests/watch_lib.inc
. "$(dirname "$0")/watch_lib.inc"

# bad EXPECTED-STDERR-LINE ARGS...
bad() {
	want=$1
	shift
	status=0
	# shellcheck disable=SC2086 # WRAP is a command line, split on purpose
	$WRAP "$WATCH" "$@" >"$dir/o" 2>"$dir/e" </dev/null || status=$?
	[ "$status" -eq 2 ] || fail "sigfd-watch $*: status $status, want 2"
	[ ! -s "$dir/o" ] || fail "sigfd-watch $*: wrote to stdout"
	[ "$(wc -l <"$dir/e")" -eq 1 ] || fail "sigfd-watch $*: stderr not one line: $(cat "$dir/e")"
	[ "$(cat "$dir/e")" = "sigfd-watch: $want" ] ||
		fail "sigfd-watch $*: stderr '$(cat "$dir/e")', want 'sigfd-watch: $want'"
}

bad "unknown signal 'SIGFOO'" SIGFOO
bad "unknown signal 'FOO'" USR1 FOO
bad "unknown signal ''" ''
bad "unknown signal 'RTMIN-1'" RTMIN-1
bad "unknown signal 'RTMAX+1'" RTMAX+1
bad "unknown signal 'RTMIN+x'" RTMIN+x
bad "realtime signal out of range 'RTMIN+999'" RTMIN+999
bad "no such signal number '0'" 0
bad "no such signal number '999'" 999
bad "no such signal number '99999'" 99999
bad "SIGKILL cannot be watched: it can be neither blocked nor caught" KILL
bad "SIGKILL cannot be watched: it can be neither blocked nor caught" 9
bad "SIGSTOP cannot be watched: it can be neither blocked nor caught" sigstop
bad "bad count '0' (want a whole number from 1)" --count 0
bad "bad count '-1' (want a whole number from 1)" --count -1
bad "bad count 'x' (want a whole number from 1)" --count=x
bad "bad count '' (want a whole number from 1)" -c ''
bad "bad count '99999999999999999999999' (want a whole number from 1)" --count 99999999999999999999999
bad "bad timeout '-1' (want seconds, e.g. 2 or 0.5)" --timeout -1
bad "bad timeout 'inf' (want seconds, e.g. 2 or 0.5)" --timeout inf
bad "bad timeout '1e3' (want seconds, e.g. 2 or 0.5)" --timeout=1e3
bad "bad timeout '.' (want seconds, e.g. 2 or 0.5)" -t .
bad "bad timeout '1s' (want seconds, e.g. 2 or 0.5)" --timeout 1s
bad "option '--count' needs an argument" --count
bad "option '--timeout' needs an argument" USR1 --timeout
bad "unknown option '--bogus'" --bogus
bad "unknown option '-x'" -x
bad "unknown option '--counts=3'" --counts=3
bad "unknown option '--json=1'" --json=1
# After "--" everything is a signal.
bad "unknown signal '--json'" -- --json

# --help: usage on stdout, status 0.
out=$($WRAP "$WATCH" --help) || fail "--help: status $?"
case $out in "usage: sigfd-watch [--json] [--count N] [--timeout SECONDS] [SIGNAL...]"*) ;;
*) fail "--help: $out" ;; esac

# Accepted spellings: with or without SIG, any case, realtime forms, numbers;
# naming a signal twice watches it once.
start_watch --timeout 0 usr1 SIGusr2 Hup 10 rtmin RTMIN+1 sigrtmax-1 SIGRTMAX 15 --json
[ "$nsig" = 8 ] || fail "watching $nsig signals, want 8"
finish 1

# sigfd-send: status 2 and one line for bad arguments, 1 when sending fails.
sbad() {
	status=0
	"$SEND" "$@" 2>"$dir/e" || status=$?
	[ "$status" -eq 2 ] || fail "sigfd-send $*: status $status, want 2"
	[ "$(wc -l <"$dir/e")" -eq 1 ] || fail "sigfd-send $*: stderr: $(cat "$dir/e")"
}
sbad
sbad USR1
sbad FOO $$
sbad USR1 x
sbad USR1 0
sbad -q USR1 $$
sbad -q x USR1 $$
sbad -z USR1 $$
"$SEND" --help | grep -q '^usage: sigfd-send' || fail "sigfd-send --help"
# A pid that cannot exist (above the kernel's limit): not sent, status 1.
status=0
"$SEND" USR1 2147483647 2>"$dir/e" || status=$?
[ "$status" -eq 1 ] && grep -q '^sigfd-send: kill: ' "$dir/e" || fail "sigfd-send to no process: $status"

echo "$test_name: ok"
