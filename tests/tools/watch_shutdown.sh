#!/bin/sh
# SPDX-License-Identifier: MIT
# sigfd-watch -- COMMAND's shutdown policy:
#  - --kill-after: a COMMAND that ignores the SIGTERM passed on gets SIGKILL
#    once the time is up (137), and the log says so, even while a flood of
#    signals keeps sigfd-watch reading; one that ends on it is left alone
#    (143);
#  - --group: when COMMAND exits, the rest of its group and the processes
#    it adopted get SIGTERM; with --kill-after they are waited for and
#    reaped, and one that ignores SIGTERM gets SIGKILL at the end of the
#    time; the status stays COMMAND's;
#  - as a subreaper, orphans are waited for (at most --kill-after) and
#    reaped: sigfd-watch ends as soon as the last one has, however long the
#    time given; one that outlives the time is left, and the log says so.
# Processes wait on FIFOs held open here (fd 5), never on time. (A
# background job's standard input is /dev/null: each opens the FIFO itself.)
# shellcheck source=tests/tools/watch_lib.inc
. "$(dirname "$0")/watch_lib.inc"

mkfifo "$dir/hold" "$dir/go"
exec 5<>"$dir/hold"

# ready FILE: wait until a COMMAND has written its line to FILE (a FIFO).
ready() {
	IFS= read -r line <"$1" || fail "no word from COMMAND"
}

# term_cat TRAP: COMMAND sets TRAP, says it is ready through the FIFO go,
# and becomes cat; it is sent SIGTERM, which the log shows.
term_cat() {
	start_watch -o - -k 0.2 -- sh -c "$1"' echo >"$1"; exec cat <"$2"' sh "$dir/go" "$dir/hold"
	running
	ready "$dir/go"
	kill -TERM "$wpid"
	next_line
	expect_text SIGTERM kill pid=$$
}

# --kill-after: SIGTERM ignored, SIGKILL 0.2 s later. COMMAND says it is
# ready (its trap set) through the FIFO go.
term_cat 'trap "" TERM;'
note "pid $cpid still running 0.2 s after SIGTERM: sending SIGKILL"
next_line
expect_text SIGCHLD child-killed pid="$cpid" status=SIGKILL
finish 137

# --kill-after holds against a flood: the time is looked at on every pass,
# not only when a wait found nothing to read (a stream of signals kept the
# SIGKILL away for as long as it lasted). sigfd-watch is stopped, 20,000
# real-time signals (40, which COMMAND ignores) and SIGTERM are queued for
# it, and it is continued: it reads SIGTERM in its first batch (lower
# numbers come first) and passes it on, and it must send SIGKILL 0.01 s
# later with most of the 20,000 still unread; it used to read them all
# first. Its log, in a file, holds one line for each it read.
start_watch -o "$dir/flood.log" -k 0.01 -- sh -c 'trap "" TERM 40; echo >"$1"; exec cat <"$2"' sh "$dir/go" "$dir/hold"
running
ready "$dir/go"
kill -STOP "$wpid"
i=0
while [ "$i" -lt 20000 ]; do
	kill -40 "$wpid"
	i=$((i + 1))
done
kill -TERM "$wpid"
kill -CONT "$wpid"
note "pid $cpid still running 0.01 s after SIGTERM: sending SIGKILL"
finish 137
read_before_kill=$(grep -c ' SIGRTMIN+[0-9]* ' "$dir/flood.log") || :
[ "$read_before_kill" -gt 0 ] || fail "no real-time signal logged: the count says nothing"
[ "$read_before_kill" -lt 20000 ] || fail "all 20,000 signals read before SIGKILL"

# The same time given, and COMMAND ends on SIGTERM: no SIGKILL.
term_cat ''
next_line
expect_text SIGCHLD child-killed pid="$cpid" status=SIGTERM
finish 143

# --group: COMMAND exits 3 leaving a member of its group; SIGTERM ends the
# member, which sigfd-watch then reaps (it is gone, not a zombie, once
# sigfd-watch has exited), and the status is COMMAND's.
start_watch -o - -g -k 1000 -- sh -c 'cat <"$1" & echo $! >"$2"; exit 3' sh "$dir/hold" "$dir/go" CHLD
running
ready "$dir/go"
member=$line
next_line
expect_text SIGCHLD child-exited pid="$cpid" status=3
note "pid $cpid has ended: SIGTERM to the rest of its process group"
next_line
expect_text SIGCHLD child-killed pid="$member" status=SIGTERM
finish 3
! kill -0 "$member" 2>/dev/null || fail "member $member still there"

# A member that ignores SIGTERM: SIGKILL when the time is up. COMMAND
# exits only once the member's trap is set (FIFO go2).
mkfifo "$dir/go2" "$dir/go3"
start_watch -o - -g -k 0.2 -- sh -c '(trap "" TERM; echo >"$2"; exec cat <"$1") & read x <"$3"; exit 4' sh "$dir/hold" "$dir/go" "$dir/go2" CHLD
running
ready "$dir/go"
echo >"$dir/go2"
next_line
expect_text SIGCHLD child-exited pid="$cpid" status=4
note "pid $cpid has ended: SIGTERM to the rest of its process group"
note "process group $cpid still there 0.2 s after COMMAND: sending SIGKILL"
next_line
expect_text SIGCHLD child-killed status=SIGKILL
finish 4

# The same, with also an orphan out of the group (a session of its own),
# that ignores SIGTERM too: --group reaches it as a process we adopted
# (issue 27, item 5; it was left running): SIGTERM, then SIGKILL with the
# group, and both are reaped and logged. COMMAND's two waits are on two
# FIFOs: reopened at once, go2 could find the first writer still open and
# read its end, and COMMAND exit before the orphan was there.
mkfifo "$dir/go4"
start_watch -o - -g -k 0.2 -- sh -c '(trap "" TERM; echo >"$2"; exec cat <"$1") & read x <"$3"; setsid sh -c "trap \"\" TERM; echo \$\$ >\"\$1\"; exec cat <\"\$2\"" sh "$4" "$1" >/dev/null 2>&1 & read x <"$5"; exit 4' sh "$dir/hold" "$dir/go" "$dir/go2" "$dir/go3" "$dir/go4" CHLD
running
ready "$dir/go"
echo >"$dir/go2"
ready "$dir/go3"
orphan=$line
echo >"$dir/go4"
next_line
expect_text SIGCHLD child-exited pid="$cpid" status=4
note "pid $cpid has ended: SIGTERM to the rest of its process group and to 1 adopted process"
note "process group $cpid or adopted processes still there 0.2 s after COMMAND: sending SIGKILL"
next_line
expect_text SIGCHLD child-killed status=SIGKILL
killed=$(field pid)
next_line
expect_text SIGCHLD child-killed status=SIGKILL
killed="$killed $(field pid)"
case " $killed " in *" $orphan "*) ;; *) fail "no end logged for the orphan $orphan: $killed" ;; esac
finish 4
! kill -0 "$orphan" 2>/dev/null || fail "the orphan $orphan is still there"

# Without --group, the orphan (its own session: no group reaches it) is
# waited for and reaped: once it has exited, sigfd-watch ends at once,
# whatever time was given.
start_watch -o - -k 1000 -- sh -c 'setsid sh -c "echo \$\$ >\"\$1\"; read x <\"\$1\"; exit 6" sh "$1" & exit 5' sh "$dir/go" CHLD
running
ready "$dir/go"
orphan=$line
next_line
expect_text SIGCHLD child-exited pid="$cpid" status=5
echo go >"$dir/go"
next_line
expect_text SIGCHLD child-exited pid="$orphan" status=6
finish 5

# One that outlives the time is left running, and the log says so (its
# output away from the log's FIFOs, which it would hold open).
start_watch -o - -k 0.2 -- sh -c 'setsid sh -c "echo \$\$ >\"\$1\"; exec cat <\"\$2\"" sh "$1" "$2" >/dev/null 2>&1 & exit 0' sh "$dir/go" "$dir/hold" CHLD
running
ready "$dir/go"
orphan=$line
next_line
expect_text SIGCHLD child-exited pid="$cpid" status=0
note "leaving processes still running 0.2 s after COMMAND"
finish 0
kill -0 "$orphan" || fail "the orphan $orphan was not left running"
kill -TERM "$orphan"

echo "$test_name: ok"
