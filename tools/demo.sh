#!/bin/sh
# SPDX-License-Identifier: MIT
# The scripted demonstration, run by `make demo` with BUILD set to the build
# directory. Each step waits for the line it shows (FIFOs, no sleeps), so it
# takes well under a second
# and prints the same story every time (tests/tools/demo_story.sh).
set -eu
B=${BUILD:?BUILD must name the build directory}
WATCH=$B/bin/sigfd-watch
SEND=$B/bin/sigfd-send
dir=$(mktemp -d)
wpid=
trap '[ -n "$wpid" ] && kill -KILL "$wpid" 2>/dev/null; rm -rf "$dir"' EXIT

say() { printf '\n== %s\n' "$*"; }
show() { # show the next line sigfd-watch prints
	IFS= read -r line <&3 || { echo "demo: sigfd-watch stopped early" >&2; exit 1; }
	printf '   %s\n' "$line"
}

# Part 1: sigfd-watch. The child is started by the process that then execs
# sigfd-watch, so it is sigfd-watch's child; it exits when told through a
# FIFO, once sigfd-watch is watching.
child() {
	sh -c 'read x <"$0"; exit 7' "$dir/go" </dev/null >/dev/null 2>&1 &
	echo $! >"$dir/child"
}

say "sigfd-watch: every signal it watches arrives as a record on a descriptor"
mkfifo "$dir/out" "$dir/err" "$dir/go"
(
	child
	exec "$WATCH" USR1 RTMIN+1 CHLD TERM
) >"$dir/out" 2>"$dir/err" &
wpid=$!
exec 3<"$dir/out" 4<"$dir/err"
IFS= read -r line <&4
printf '   %s\n' "$line"

say "kill -USR1 $wpid   (from this shell, pid $$)"
kill -USR1 "$wpid"
show

say "sigfd-send -q 42 RTMIN+1 $wpid   (sigqueue: the value travels with the signal)"
"$SEND" -q 42 RTMIN+1 "$wpid"
show

say "a child of sigfd-watch (pid $(cat "$dir/child")) exits with status 7"
echo >"$dir/go"
show

say "kill -TERM $wpid   (reported, then sigfd-watch stops)"
kill -TERM "$wpid"
show
status=0
wait "$wpid" || status=$?
wpid=
exec 3<&- 4<&-
echo "   sigfd-watch exited with status $status"

say "sigfd-watch --json --count 1 RTMIN: the same records as JSON"
rm -f "$dir/out" "$dir/err"
mkfifo "$dir/out" "$dir/err"
"$WATCH" --json --count 1 RTMIN >"$dir/out" 2>"$dir/err" &
wpid=$!
exec 3<"$dir/out" 4<"$dir/err"
IFS= read -r line <&4
printf '   %s\n' "$line"
"$SEND" -q -5 RTMIN "$wpid"
show
status=0
wait "$wpid" || status=$?
wpid=
exec 3<&- 4<&-
echo "   sigfd-watch exited with status $status (--count reached)"

# ---------------------------------------------------------------------------
# Part 2: sigfd-watch -- COMMAND, the wrapper. COMMAND says so once its
# trap is set, then reads a FIFO this shell holds open (no child: a
# background one could outlive it holding our FIFO); its SIGTERM comes from
# this shell through sigfd-watch.
# ---------------------------------------------------------------------------
say "sigfd-watch -o LOG -- sh -c '...': COMMAND runs under sigfd-watch, a tiny init that
   passes every signal on, reaps, logs who sent what, and exits with COMMAND's status"
rm -f "$dir/out" "$dir/err"
mkfifo "$dir/out" "$dir/hold"
exec 5<>"$dir/hold"
"$WATCH" -o "$dir/log" -- sh -c 'trap "echo \"COMMAND: SIGTERM came, exit 3\"; exit 3" TERM
	echo "COMMAND: pid $$, waiting"; read x' <&5 >"$dir/out" 2>"$dir/err" &
wpid=$!
exec 3<"$dir/out" 5>&-
show
say "kill -TERM $wpid   (sigfd-watch's pid, as docker stop or systemd would)"
kill -TERM "$wpid"
status=0
wait "$wpid" || status=$?
wpid=
sed 's/^/   /' <&3
exec 3<&-
echo "   sigfd-watch exited with status $status, COMMAND's; its messages and its log:"
sed 's/^/   /' "$dir/err" "$dir/log"

# ---------------------------------------------------------------------------
# Part 3: share mode, the 2003 story: a child listens in on its parent.
# ---------------------------------------------------------------------------
say "examples/listen-in: a parent makes a SIGFD_SHARE fd and forks a listener; a third
   process signals the parent; the parent execs; the listener sees end of file"
"$BUILD/examples/listen-in" | sed 's/^/   /'
