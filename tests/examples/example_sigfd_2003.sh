#!/bin/sh
# SPDX-License-Identifier: MIT
# Drives examples/sigfd-2003: once it has printed "sigfd returns N" every
# signal is blocked and taken by the fd, so a SIGUSR1 and then a SIGTERM sent
# from here must each come back as a line naming the signal and this shell as
# the sender, and SIGTERM must make it exit 0. Its output goes through a FIFO
# so each step waits for the previous line instead of sleeping.
set -eu
prog=$BUILD/examples/sigfd-2003
dir=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; rm -rf "$dir"' EXIT
mkfifo "$dir/out"
# shellcheck disable=SC2086 # WRAP is a command line, split on purpose
$WRAP "$prog" >"$dir/out" &
pid=$!
exec 3<"$dir/out"

fail() { echo "example_sigfd_2003: $*" >&2; exit 1; }

# "signal N (description) from pid P uid U": check N is $1 and P is us.
expect_signal() {
	IFS= read -r line <&3 || fail "no line for SIG$1 (program died?)"
	set -- "$1" $line
	[ "$2" = signal ] || fail "unexpected line: $line"
	[ "$(kill -l "$3")" = "$1" ] || fail "want SIG$1, got: $line"
	case $line in
	*" from pid $$ uid $(id -u)") ;;
	*) fail "sender is not pid $$ uid $(id -u): $line" ;;
	esac
}

IFS= read -r line <&3 || fail "no output"
case $line in
"sigfd returns "[0-9]*) ;;
*) fail "first line: $line" ;;
esac
kill -USR1 "$pid"
expect_signal USR1
kill -TERM "$pid"
expect_signal TERM
status=0
wait "$pid" || status=$?
pid=
[ "$status" -eq 0 ] || fail "exit status $status"
if IFS= read -r line <&3; then fail "output after SIGTERM: $line"; fi
echo "example_sigfd_2003: ok"
