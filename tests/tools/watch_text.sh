#!/bin/sh
# SPDX-License-Identifier: MIT
# sigfd-watch's text lines, field by field: a kill(2) from this shell (origin
# kill, pid and comm of this shell, our uid and user name), sigqueue(3) from
# sigfd-send with values (origin sigqueue, value=, the sender's pid), realtime
# names both ways, and --count ending the run with status 0.
# shellcheck source=tests/tools/watch_lib.inc
. "$(dirname "$0")/watch_lib.inc"

start_watch --count 4 --timeout 60 USR1 sigusr2 SIGRTMIN+3 rtmax-1
[ "$nsig" = 4 ] || fail "watching $nsig signals, want 4"

kill -USR1 "$wpid"
next_line
expect_text SIGUSR1 kill pid=$$ comm="$me_comm" uid="$me_uid" user="$me_user"
[ -z "$(field value)" ] || fail "a kill carries no value: $line"

"$SEND" -q 42 USR2 "$wpid" &
spid=$!
wait "$spid"
next_line
expect_text SIGUSR2 sigqueue pid=$spid uid="$me_uid" user="$me_user" value=42
# The sender may be gone by the time the record is read; if not, it is named.
case $(field comm) in "" | sigfd-send) ;; *) fail "sender comm in: $line" ;; esac

"$SEND" -q -7 RTMIN+3 "$wpid"
next_line
expect_text SIGRTMIN+3 sigqueue value=-7 uid="$me_uid"

"$SEND" RTMAX-1 "$wpid" &
spid=$!
wait "$spid"
next_line
expect_text SIGRTMAX-1 kill pid=$spid uid="$me_uid"

finish 0
echo "$test_name: ok"
