#!/bin/sh
# SPDX-License-Identifier: MIT
# Drives examples/poll-loop and examples/epoll-loop: each starts 3 children
# that exit with status 0, 1 and 2; all three must be reaped and reported
# (however many SIGCHLD records they coalesced into), then SIGTERM (or SIGINT)
# from here must end the loop with exit status 0 and name this shell as the
# sender. Output goes through a FIFO so each step waits for a line, no sleep.
set -eu
dir=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; rm -rf "$dir"' EXIT

fail() { echo "example_loops: $*" >&2; exit 1; }

run() { # run PROGRAM SIGNAL
	name=$1 sig=$2
	rm -f "$dir/out"
	mkfifo "$dir/out"
	# shellcheck disable=SC2086 # WRAP is a command line, split on purpose
	$WRAP "$BUILD/examples/$name" 3 >"$dir/out" &
	pid=$!
	exec 3<"$dir/out"
	IFS= read -r line <&3 || fail "$name: no output"
	[ "$line" = "$name: pid $pid ready" ] || fail "$name: first line: $line"
	seen=
	for _ in 1 2 3; do
		IFS= read -r line <&3 || fail "$name: missing child line"
		case $line in
		"child "*" exited, status "[012]) seen="$seen ${line##* }" ;;
		*) fail "$name: unexpected: $line" ;;
		esac
	done
	[ "$(printf '%s\n' $seen | sort | tr '\n' ' ')" = "0 1 2 " ] ||
		fail "$name: child statuses:$seen"
	kill -"$sig" "$pid"
	IFS= read -r line <&3 || fail "$name: no line after SIG$sig"
	set -- $line
	[ "$1" = signal ] && [ "$(kill -l "$2")" = "$sig" ] || fail "$name: want SIG$sig: $line"
	[ "$line" = "signal $2 from pid $$: exiting" ] || fail "$name: $line"
	status=0
	wait "$pid" || status=$?
	pid=
	[ "$status" -eq 0 ] || fail "$name: exit status $status"
	exec 3<&-
	echo "$name SIG$sig: ok"
}

run poll-loop TERM
run epoll-loop TERM
run poll-loop INT
run epoll-loop INT
