#!/bin/sh
# SPDX-License-Identifier: MIT
# sigfd-watch's shutdown reaches every process it answers for (issue 27,
# item 5): once COMMAND has ended, SIGTERM, then SIGKILL after
# --kill-after, each end reaped and logged.
#  - With --group, not pid 1: a daemon COMMAND started with setsid (out of
#    its group, adopted by us) gets SIGTERM.
#  - As pid 1 of a pid namespace (unshare, root only: else SKIPPED), with
#    no --group: every other process of the namespace. A daemon that ends on
#    SIGTERM is logged with its status, without --kill-after too (pid 1
#    waits up to 5 s: before, it got no SIGTERM and died by the SIGKILL of
#    the namespace's end, unlogged); one that ignores SIGTERM gets SIGKILL
#    once --kill-after has passed.
# Daemons wait on FIFOs held open here (fd 5), never on time.
# shellcheck source=tests/tools/watch_lib.inc
. "$(dirname "$0")/watch_lib.inc"

mkfifo "$dir/hold" "$dir/go" "$dir/rel"
exec 5<>"$dir/hold"


# A daemon: a session of its own, says its pid through $1, waits on $2;
# exits 7 on SIGTERM, or ignores it when given "" as $3. COMMAND starts
# daemons, then exits once the FIFO rel says so.
daemon='setsid sh -c '\''trap "${3-exit 7}" TERM; echo $$ >"$1"; read x <"$2"; read x <"$2"'\'' sh'

# daemon_ends START NOTE ARGS...: START (start_watch or pid1) runs
# sigfd-watch ARGS with a COMMAND that starts one daemon and exits 3 once
# released; the daemon gets SIGTERM (the note says to whom: NOTE) and its
# end, 7, is logged.
daemon_ends() {
	start=$1 says=$2
	shift 2
	"$start" "$@" -- sh -c "$daemon"' "$1" "$2" >/dev/null 2>&1 & read x <"$3"; exit 3' sh "$dir/go" "$dir/hold" "$dir/rel" CHLD
	[ "$start" = pid1 ] || running
	IFS= read -r d <"$dir/go" || fail "no daemon"
	echo >"$dir/rel"
	next_line
	expect_text SIGCHLD child-exited pid="$cpid" status=3
	note "pid $cpid has ended: SIGTERM to $says"
	next_line
	expect_text SIGCHLD child-exited pid="$d" status=7
	finish 3
}

# --group: the daemon is adopted once COMMAND has ended, and gets SIGTERM.
daemon_ends start_watch "the rest of its process group and to 1 adopted process" -o - -g -k 5

if [ "$(id -u)" != 0 ] || ! unshare -fpm --mount-proc true 2>/dev/null; then
	echo "SKIPPED: the pid 1 part needs root and unshare -fpm (a new pid namespace)"
	exit 77
fi

# pid1 ARGS...: sigfd-watch as pid 1 of a new pid namespace (its own /proc).
pid1() {
	rm -f "$dir/out" "$dir/err"
	mkfifo "$dir/out" "$dir/err"
	unshare -fpm --mount-proc "$WATCH" "$@" >"$dir/out" 2>"$dir/err" &
	wpid=$!
	exec 3<"$dir/out" 4<"$dir/err"
	IFS= read -r line <&4 || fail "no watching line"
	case $line in "sigfd-watch: watching pid 1 for "*) ;; *) fail "watching line: $line" ;; esac
	running
}

# No --kill-after: the daemon gets SIGTERM and is waited for, and logged.
daemon_ends pid1 "every other process of the namespace" -o -

# --kill-after 0.3: one daemon ends on SIGTERM, one ignores it and gets
# SIGKILL.
mkfifo "$dir/go2"
pid1 -o - -k 0.3 -- sh -c "$daemon"' "$1" "$3" >/dev/null 2>&1 & '"$daemon"' "$2" "$3" "" >/dev/null 2>&1 & read x <"$4"; exit 4' sh "$dir/go" "$dir/go2" "$dir/hold" "$dir/rel" CHLD
IFS= read -r d1 <"$dir/go" || fail "no daemon"
IFS= read -r d2 <"$dir/go2" || fail "no second daemon"
echo >"$dir/rel"
next_line
expect_text SIGCHLD child-exited pid="$cpid" status=4
note "pid $cpid has ended: SIGTERM to every other process of the namespace"
next_line
expect_text SIGCHLD child-exited pid="$d1" status=7
note "processes still there 0.3 s after COMMAND: sending SIGKILL to every other process of the namespace"
next_line
expect_text SIGCHLD child-killed pid="$d2" status=SIGKILL
finish 4

echo "$test_name: ok"
