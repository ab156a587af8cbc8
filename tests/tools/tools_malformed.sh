#!/bin/sh
# SPDX-License-Identifier: MIT
# Every malformed signal name, range, number, option and PID we could think
# of, fed to sigfd-watch and sigfd-send from one table: each gives status 2,
# nothing on stdout and one line on stderr, "TOOL: " and a message naming
# the problem (the fragment in the table). Never a crash, a hang (each run
# has its own limit) or, in the sanitizer builds, undefined behaviour.
# tests/tools/watch_args.sh checks the exact wording of the common cases; this is
# the long tail. The fuzzer (fuzz/args_fuzz.c) covers what no table can.
set -eu
W=$BUILD/bin/sigfd-watch
S=$BUILD/bin/sigfd-send
WRAP=${WRAP:-}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
n=0 bad=0
# The PID in a sigfd-send line: one that cannot exist (above any pid_max),
# and signal 0 where a PID is the point, so
# a line wrongly taken as good sends nothing to anyone (status 1, not 0).
NOPID=2147483647

# row TOOL FRAGMENT ARGS...: run now, in the background, and judged with
# its batch. Rows run JOBS at a time, each with its own files.
# Under valgrind a row is mostly its start-up, half a second of CPU: the
# table took 206 s there, more than any other test. There the first row of
# each message and every fourth row run under it (wrapped), the rest
# without, still judged.
JOBS=$(($(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2) * 2))
batch=
wrapped=0
touch "$dir/messages"
row() {
	tool=$1 n=$((n + 1))
	printf '%s\n%s\n' "$1" "$2" >"$dir/$n.row"
	wrap=$WRAP
	case $WRAP in
	*valgrind*)
		if [ $((n % 4)) -ne 0 ] && grep -Fxq "$1 $2" "$dir/messages"; then
			wrap=
		fi
		echo "$1 $2" >>"$dir/messages"
		;;
	esac
	[ -z "$wrap" ] || wrapped=$((wrapped + 1))
	shift 2
	printf '%s\n' "$*" >>"$dir/$n.row"
	# shellcheck disable=SC2086 # a command line, split on purpose
	(
		status=0
		timeout -k 2 10 $wrap "$tool" "$@" >"$dir/$n.o" 2>"$dir/$n.e" </dev/null || status=$?
		echo "$status" >"$dir/$n.s"
	) &
	batch="$batch $n"
	[ $((n % JOBS)) -ne 0 ] || judge_batch
}

judge_batch() {
	wait
	for i in $batch; do
		judge "$i"
	done
	batch=
}

judge() {
	{
		read -r tool
		read -r frag
		read -r args
	} <"$dir/$1.row"
	read -r status <"$dir/$1.s"
	name=$(basename "$tool")
	why=
	[ "$status" -eq 2 ] || why="status $status, want 2"
	[ -z "$why" ] && [ -s "$dir/$1.o" ] && why="wrote to stdout"
	[ -z "$why" ] && [ "$(wc -l <"$dir/$1.e")" -ne 1 ] && why="stderr is not one line"
	[ -z "$why" ] && case $(cat "$dir/$1.e") in "$name: "*"$frag"*) ;; *) why="message lacks '$frag'" ;; esac
	if [ -n "$why" ]; then
		bad=$((bad + 1))
		printf 'FAIL %s %s: %s\n    stderr: %s\n' "$name" "$args" "$why" "$(head -c 300 "$dir/$1.e")"
	fi
}

long=$(printf '%0300d' 0 | tr 0 7)
# Signal names: unknown, mangled, partial, with spaces or signs.
for s in SIG sig SIGSIG SIGUSR USR3 USR11 ' USR1' 'USR1 ' 'US R1' 'USR1,USR2' \
	'+USR1' 'SIG-USR1' 'SIGKILLX' 'HUP\n' 'hup;' 'RT' 'RTMI' 'RTMINN' \
	'RTMIN+' 'RTMAX-' 'RTMIN-0' 'RTMAX+0' 'RTMIN++1' 'RTMIN+-1' 'RTMIN+ 1' \
	'RTMIN+0x1' 'RTMIN+1.0' 'RTMIN+1e1' 'RTMID' 'SIGRT' 'rtmin+1x' \
	'é' 'USR1é' '*' '?' '%s%s%s%n' '\'; do
	row "$W" "signal '" "$s"
	row "$S" "signal '" "$s" $NOPID
done
# Numbers: zero, negative, out of range, not decimal, padded.
for s in 65 100 1000 9999 10000 4294967297 18446744073709551617 "$long"; do
	row "$W" "signal" "$s"
	row "$S" "signal" "$s" $NOPID
done
for s in -1 1x 0x1 1.0 1e1 '1 ' ' 1' +1 ++1 '' 1-; do
	row "$W" "'$s'" "$s"
done
row "$W" "realtime signal out of range" RTMAX-99
row "$W" "realtime signal out of range" RTMIN+1000
row "$W" "realtime signal out of range" RTMIN+9999
row "$W" "unknown signal" RTMIN+10000
# The two that can never be watched, in every spelling.
for s in KILL kill SIGKILL SiGkIlL 9 STOP sigstop 19; do
	row "$W" "cannot be watched" "$s"
	row "$W" "cannot be watched" USR1 "$s"
done
# Options: unknown, misspelt, abbreviations of nothing, values where none go.
for o in -a -Z -9 -65 -USR1x -- --- ---json --Json --jsonx --json= --group=1 --help=1 \
	--version=x -jZ --quiet=1 "--$long" --=1 --c; do
	case $o in --) continue ;; esac
	row "$W" "option" "$o"
done
row "$W" "needs an argument" -c
row "$W" "needs an argument" -t
row "$W" "needs an argument" -x
row "$W" "needs an argument" --exclude
row "$W" "needs an argument" -jgc
# Counts and timeouts.
for c in 0 00 -0 +1 1.5 1e3 0x10 ' 1' '1 ' 18446744073709551616 "$long" ''; do
	row "$W" "bad count" -c "$c"
done
for t in -0 +1 1e-3 0x1 1,5 '1 ' ' 1' . .. 1.2.3 1..2 nan inf infinity 100000001 \
	99999999999999999999 "$long" '' 1: 1s 1ms; do
	row "$W" "bad timeout" --timeout "$t"
done
# --exclude lists.
for x in , ,, USR1,,USR2 'USR1, USR2' FOO,USR1 USR1,FOO "RTMIN+$long" \
	"$long,USR1" 'USR1;USR2' 0 KILLX; do
	row "$W" "signal" -x "$x"
done
row "$W" "leaves no signal" HUP -x 1
row "$W" "leaves no signal" RTMIN -x rtmin,RTMIN
# COMMAND and the options that do not go with it.
row "$W" "must be followed by a COMMAND" -j --
row "$W" "does not go with a COMMAND" -c3 USR1 -- true
row "$W" "does not go with a COMMAND" -t1 -- true x
row "$W" "needs a COMMAND" --group
row "$W" "needs a COMMAND" -g -j USR1
row "$W" "signal" USR1 FOO -- true
# The shutdown options and the log's.
for o in --kill-after --rewrite --success-status; do
	row "$W" "needs an argument" "$o"
done
row "$W" "needs a COMMAND" -k 5
row "$W" "needs a COMMAND" -r TERM:QUIT
row "$W" "needs a COMMAND" -e 143
row "$W" "needs a COMMAND" -q
row "$W" "do not go together" -q -o log -- true
row "$W" "empty --output" -o '' -- true
for k in 0 0.0 -1 1e3 x '' 1s; do
	row "$W" "bad --kill-after" -k "$k" -- true
done
for r in TERM TERM: :QUIT TERM:FOO FOO:QUIT KILL:TERM STOP:TERM CHLD:TERM TERM:QUIT:HUP \
	TERM:-1 TERM:65 "$long:TERM" ''; do
	row "$W" "" -r "$r" -- true
done
for e in -1 256 x 1.5 '' 0x10; do
	row "$W" "bad exit status" -e "$e" -- true
done

# sigfd-send: signals, the -SIGNAL form, -s and -n, values, PIDs.
for s in -FOO -SIG -RTMIN+999 -USR1x '-1x' -65 -999; do
	row "$S" "" "$s" $NOPID
done
for num in x 1x -1 65 999 '' USR1 0x1 +1x 4294967296; do
	row "$S" "signal" -n "$num" $NOPID
done
for s in FOO '' RTMIN+999 65 "$long"; do
	row "$S" "signal" -s "$s" $NOPID
	row "$S" "signal" --signal="$s" $NOPID
done
row "$S" "given twice" -s USR1 -s USR2 $NOPID
row "$S" "given twice" -n 10 -s USR2 $NOPID
row "$S" "given twice" -USR1 -n 12 $NOPID
for v in '' x 1x 0x1 1.0 ' 1' '1 ' 2147483648 -2147483649 99999999999 "$long" --; do
	row "$S" "" -q "$v" USR1 $NOPID
done
for p in x 1x 0x10 1.0 ' 1' '1 ' 0 -1 00 -0 +0 2147483648 -2147483648 "$long" '' -; do
	row "$S" "pid" 0 -- "$p"
done
row "$S" "pid" USR1 $NOPID x
row "$S" "no SIGNAL" -q $NOPID
row "$S" "no SIGNAL" --
row "$S" "no PID" USR1
row "$S" "no PID" -TERM
row "$S" "no PID" -s TERM --
row "$S" "process group" -q 1 0 -- -2
row "$S" "process group" -q 1 0 $NOPID -2
row "$S" "option" --bogus USR1 $NOPID
row "$S" "option" --sigx=USR1 $NOPID
row "$S" "option" --help=1
row "$S" "needs an argument" USR1 $NOPID -q
row "$S" "needs an argument" --signal
row "$S" "too many PIDs" 0 $(seq 2 130)

judge_batch
under=
[ -z "$WRAP" ] || under=" ($wrapped of them under ${WRAP%% *})"
echo "tools_malformed: $n command lines$under, $bad wrong"
[ "$bad" -eq 0 ]
