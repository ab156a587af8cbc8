#!/bin/sh
# SPDX-License-Identifier: MIT
# How sigfd-watch ends: --count (0), --timeout (1, also when it comes before
# the count), a reported SIGTERM or SIGINT (0), by default or when named.
# shellcheck source=tests/tools/watch_lib.inc
. "$(dirname "$0")/watch_lib.inc"

# --count 1 with two signals sent: exactly one line, then status 0. Which one
# depends on whether sigfd-watch reads before the second arrives; the other
# is never read. By the second kill sigfd-watch may have exited and dash may
# have reaped it already, so that kill may fail with ESRCH.
start_watch --count 1 --timeout 60 USR1 USR2
kill -USR2 "$wpid"
kill -USR1 "$wpid" 2>/dev/null || :
next_line
case $(word 2) in SIGUSR1 | SIGUSR2) ;; *) fail "want SIGUSR1 or SIGUSR2: $line" ;; esac
expect_text "$(word 2)" kill pid=$$
finish 0

# --timeout with nothing sent: status 1, no output; fractions are allowed.
start_watch --timeout 0.2 USR1
finish 1
start_watch --timeout=0 USR1
finish 1

# The timeout ends it before the count: one line, then status 1.
start_watch --count 2 --timeout 1.5 USR1
kill -USR1 "$wpid"
next_line
expect_text SIGUSR1 kill
finish 1

# By default every catchable signal is watched, SIGTERM too; reporting it
# ends the run with 0. Glibc keeps 2 numbers for itself, musl 3.
start_watch --timeout 60
[ "$nsig" -ge 50 ] || fail "default set has only $nsig signals"
kill -HUP "$wpid"
next_line
expect_text SIGHUP kill pid=$$
kill -TERM "$wpid"
next_line
expect_text SIGTERM kill pid=$$ uid="$me_uid"
finish 0

# SIGINT named explicitly. As a background job of a script this process
# starts with SIGINT ignored; watching it must still work.
start_watch --timeout 60 INT
[ "$nsig" = 1 ] || fail "watching $nsig signals, want 1"
case $line in *" for 1 signal") ;; *) fail "singular: $line" ;; esac
kill -INT "$wpid"
next_line
expect_text SIGINT kill pid=$$
finish 0

# Its reader gone: with SIGPIPE watched (blocked), the write fails with EPIPE
# and it ends quietly with status 3 instead of dying of SIGPIPE.
start_watch --timeout 60 USR1 PIPE
exec 3<&-
kill -USR1 "$wpid"
status=0
wait "$wpid" || status=$?
wpid=
[ "$status" -eq 3 ] || fail "reader gone: status $status, want 3"
rest_err=$(cat <&4)
exec 4<&-
[ -z "$rest_err" ] || fail "reader gone: stderr: $rest_err"

echo "$test_name: ok"
