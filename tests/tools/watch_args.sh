#!/bin/sh
# SPDX-License-Identifier: MIT
# sigfd-watch's command line: every bad argument gives status 2 and exactly
# one line on stderr naming the problem; --help gives usage and 0; signal
# names are taken in every documented spelling. sigfd-send's too.
# shellcheck source=tests/tools/watch_lib.inc
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
bad "unknown option '-z'" -z
bad "unknown option '-z'" -jz
bad "unknown option '--counts=3'" --counts=3
bad "option '--json' takes no value" --json=1
bad "option '-c' needs an argument" -jc
bad "option '-x' needs an argument" -x
bad "unknown signal 'FOO'" --exclude USR1,FOO
bad "unknown signal '' in --exclude list" -x USR1,
bad "unknown signal '' in --exclude list" -x ,USR1
bad "realtime signal out of range 'RTMIN+999'" -xRTMIN+999
bad "--exclude leaves no signal to watch" USR1 -x USR1
bad "--exclude leaves no signal to watch" USR1 USR2 -x usr2 --exclude=SIGUSR1
# After "--" comes a COMMAND; the options that end a plain watch do not go
# with one, and --group needs one.
bad "'--' must be followed by a COMMAND" --
bad "'--' must be followed by a COMMAND" USR1 --
bad "--count does not go with a COMMAND" -c 1 -- true
bad "--timeout does not go with a COMMAND" --timeout=1 -- true
bad "--group needs a COMMAND (after '--')" -g USR1
# Garbage never crashes it.
long=$(printf '%0200d' 7 | tr 0 9)
bad "no such signal number '$long'" "$long"
bad "bad count '$long' (want a whole number from 1)" -c "$long"
bad "unknown signal 'RTMIN+$long'" "RTMIN+$long"
bad "unknown option '--$long'" "--$long"

# --help and --version: on stdout, status 0, whatever else is there.
out=$($WRAP "$WATCH" --help) || fail "--help: status $?"
case $out in "usage: sigfd-watch [OPTION...] [SIGNAL...]"*"--exclude"*) ;;
*) fail "--help: $out" ;; esac
out=$($WRAP "$WATCH" -jh) || fail "-jh: status $?"
case $out in "usage: sigfd-watch"*) ;; *) fail "-jh: $out" ;; esac
out=$($WRAP "$WATCH" --version) || fail "--version: status $?"
case $out in "sigfd-watch (sigfd) "[0-9]*.[0-9]*.[0-9]*) ;; *) fail "--version: $out" ;; esac
[ "$($WRAP "$WATCH" -V)" = "$out" ] || fail "-V"

# Accepted spellings: with or without SIG, any case, realtime forms, numbers;
# naming a signal twice watches it once.
start_watch --timeout 0 usr1 SIGusr2 Hup 10 rtmin RTMIN+1 sigrtmax-1 SIGRTMAX 15 --json
[ "$nsig" = 8 ] || fail "watching $nsig signals, want 8"
finish 1

# Numbers with leading zeros, however many: 00010 is 10. The largest
# count is taken.
start_watch -t0 10 00010 0000000015 15
[ "$nsig" = 2 ] || fail "10 00010 0000000015 15: watching $nsig signals, want 2"
finish 1
start_watch -t0 -c 18446744073709551615 USR1
finish 1

# Bundled short options and joined values: -jc5 -t0 is -j -c 5 -t 0.
start_watch -jc5 -t0 USR1
[ "$nsig" = 1 ] || fail "-jc5 -t0 USR1: watching $nsig signals"
finish 1
start_watch -c5 -t 0 USR1 USR2
[ "$nsig" = 2 ] || fail "-c5: watching $nsig signals"
finish 1

# --exclude: repeatable, each a comma list, names as for SIGNAL; from the
# default set or from the named signals.
start_watch -t0
all=$nsig
finish 1
start_watch -t0 --exclude WINCH,TSTP -x sigquit --exclude=2
[ "$nsig" = $((all - 4)) ] || fail "--exclude of 4: watching $nsig of $all"
finish 1
start_watch -t0 -x USR1,RTMIN+1 USR1 USR2 rtmin+1 HUP
[ "$nsig" = 2 ] || fail "named less excluded: watching $nsig, want 2"
finish 1
# KILL and STOP, never watched, may be excluded: that changes nothing.
start_watch -t0 -x KILL,STOP -x 9
[ "$nsig" = "$all" ] || fail "-x KILL,STOP: watching $nsig of $all"
finish 1
# An excluded signal is not blocked: it acts as usual (SIGUSR1 kills).
start_watch -t 60 -x USR1 USR2 USR1
kill -USR1 "$wpid"
finish $((128 + 10))

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
sbad USR1 -- -1
sbad USR1 $$ x
sbad -q USR1 $$
sbad -q x USR1 $$
sbad -q 2147483648 USR1 $$
sbad -z USR1 $$
sbad -9
sbad -KILL
sbad -FOO $$
sbad -s
sbad -s FOO $$
sbad -s USR1 -n 10 $$
sbad -USR1 -s USR2 $$
sbad -n USR1 $$
sbad -n 999 $$
sbad -n -1 $$
sbad -n +9 $$
grep -q "^sigfd-send: bad signal number '+9'\$" "$dir/e" || fail "-n +9: $(cat "$dir/e")"
sbad -n -0 $$
sbad --signal=USR1 --bogus $$
sbad -q 1 USR1 -- -$$
sbad -TERM -1234
sbad 1234
sbad "$long" $$
sbad USR1 "$long"
"$SEND" --help | grep -q '^usage: sigfd-send' || fail "sigfd-send --help"
"$SEND" --version | grep -q '^sigfd-send (sigfd) [0-9]' || fail "sigfd-send --version"
# A pid that cannot exist (above the kernel's limit): not sent, status 1.
status=0
"$SEND" USR1 2147483647 2>"$dir/e" || status=$?
[ "$status" -eq 1 ] && grep -q '^sigfd-send: kill 2147483647: ' "$dir/e" || fail "sigfd-send to no process: $status"

# Signal 0: the existence check, in each spelling.
for form in "0 $$" "00 $$" "-0 $$" "-00 $$" "-s 0 $$" "-s 00 $$" "-n 0 $$" "-n 00 $$" \
	"--signal=0 $$" "-q 1 0 $$"; do
	# shellcheck disable=SC2086 # split on purpose
	"$SEND" $form || fail "sigfd-send $form: status $?"
done
status=0
"$SEND" -0 2147483647 2>"$dir/e" || status=$?
[ "$status" -eq 1 ] || fail "sigfd-send -0 to no process: status $status"
grep -q '^sigfd-send: kill 2147483647: ' "$dir/e" || fail "sigfd-send -0: $(cat "$dir/e")"
# Several PIDs: sent to those that exist, status 1 for the others.
status=0
"$SEND" 0 $$ 2147483647 $$ 2>"$dir/e" || status=$?
[ "$status" -eq 1 ] && [ "$(wc -l <"$dir/e")" -eq 1 ] || fail "sigfd-send to a mix: $status"

# At most 128 PIDs; a process group after "--" (signal 0 to our own).
# shellcheck disable=SC2046 # split on purpose
sbad 0 $(seq 1 129)
"$SEND" -0 -- "-$(ps -o pgid= $$ | tr -d ' ')" || fail "sigfd-send -0 to our process group"

# Each form of sigfd-send really sends the signal it names.
start_watch --count 7 --timeout 60 USR1 USR2 HUP 10 RTMIN RTMIN+2 TERM
"$SEND" -USR1 "$wpid"
next_line
expect_text SIGUSR1 kill
"$SEND" -s usr2 "$wpid"
next_line
expect_text SIGUSR2 kill
"$SEND" -1 "$wpid"
next_line
expect_text SIGHUP kill
"$SEND" -n 10 "$wpid"
next_line
expect_text SIGUSR1 kill
"$SEND" -SIGRTMIN -q 7 "$wpid"
next_line
expect_text SIGRTMIN sigqueue value=7
"$SEND" --signal=RTMIN+2 --queue=-3 -- "$wpid"
next_line
expect_text SIGRTMIN+2 sigqueue value=-3
"$SEND" -q9 TERM "$wpid"
next_line
expect_text SIGTERM sigqueue value=9
finish 0

echo "$test_name: ok"
