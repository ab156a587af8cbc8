#!/bin/sh
# SPDX-License-Identifier: MIT
# sigfd-watch --json: one object per line with the raw ssi_* fields and the
# decoded names. A kill(2) from this shell, then a sigqueue(3) with a value
# from sigfd-send; SIGTERM from this shell stops it with status 0.
# shellcheck source=tests/tools/watch_lib.inc
. "$(dirname "$0")/watch_lib.inc"

start_watch --json --timeout 60 USR1 USR2 TERM
[ "$nsig" = 3 ] || fail "watching $nsig signals, want 3"

kill -USR1 "$wpid"
next_line
expect_json '"signal":"SIGUSR1"' '"origin":"kill"' '"ssi_signo":10' '"ssi_code":0' \
	"\"ssi_pid\":$$" "\"comm\":\"$me_comm\"" "\"ssi_uid\":$me_uid" "\"user\":\"$me_user\""
case $line in
'{"time":'[0-9]*.[0-9][0-9][0-9][0-9][0-9][0-9]',"signal":'*) ;;
*) fail "time first, in seconds with microseconds: $line" ;;
esac
# Zero fields other than signo, code, pid and uid are left out.
case $line in *ssi_int* | *ssi_ptr* | *ssi_status*) fail "zero fields in: $line" ;; esac

"$SEND" -q 123456 USR2 "$wpid" &
spid=$!
wait "$spid"
next_line
expect_json '"signal":"SIGUSR2"' '"origin":"sigqueue"' '"ssi_signo":12' '"ssi_code":-1' \
	"\"ssi_pid\":$spid" "\"ssi_uid\":$me_uid" "\"user\":\"$me_user\"" \
	'"ssi_int":123456' '"ssi_ptr":123456'

kill -TERM "$wpid"
next_line
expect_json '"signal":"SIGTERM"' '"origin":"kill"' '"ssi_signo":15' "\"ssi_pid\":$$"
finish 0
echo "$test_name: ok"
