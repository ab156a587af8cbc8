#!/bin/sh
# SPDX-License-Identifier: MIT
# sigfd-watch -- COMMAND: what is passed on, and the status.
#  - --rewrite FROM:TO passes FROM on as TO (names or numbers), TO 0 drops
#    it; the log shows what came and what went;
#  - --exclude with a COMMAND leaves a signal out of the log only: SIGTERM
#    excluded still reaches COMMAND and never kills sigfd-watch (which would
#    orphan COMMAND, as it did: status 143);
#  - --success-status CODE: COMMAND's status CODE (128+N included) is 0;
#    not sigfd-watch's own 126 and 127 for a COMMAND that could not run.
# COMMAND is sigfd-watch itself, watching (-c 1: it ends after the first
# signal it is given) with its log in a file and its "watching" line sent
# to a FIFO, which says it is ready.
# shellcheck source=tests/tools/watch_lib.inc
. "$(dirname "$0")/watch_lib.inc"

mkfifo "$dir/go"

# start_inner OUTER-OPTIONS...: the outer sigfd-watch runs the inner one,
# which watches HUP, QUIT and TERM; returns once the inner is watching.
start_inner() {
	rm -f "$dir/inner"
	start_watch -o - "$@" -- sh -c 'exec "$1" -c 1 -o "$2" HUP QUIT TERM 2>"$3"' \
		sh "$WATCH" "$dir/inner" "$dir/go"
	IFS= read -r line <&4 || fail "no running line"
	IFS= read -r line <"$dir/go" || fail "no watching line from the inner sigfd-watch"
	outer=$wpid
}
# inner_got SIGNAL SENDER: the inner sigfd-watch's one line.
inner_got() {
	line=$(cat "$dir/inner")
	expect_text "$1" kill pid="$2"
}

# term_as_quit: SIGTERM to the outer one is logged as passed on as SIGQUIT,
# which ends the inner one, and so the outer one.
term_as_quit() {
	kill -TERM "$wpid"
	next_line
	expect_text SIGTERM kill pid=$$ passed=SIGQUIT
	next_line
	expect_text SIGCHLD child-exited status=0
	finish 0
	inner_got SIGQUIT "$outer"
}

# By name: TERM passed on as QUIT.
start_inner -r TERM:QUIT
term_as_quit

# By number, and dropped: HUP (1) goes nowhere, 15 goes on as 3. Had HUP
# gone on, the inner one would have reported it: it was sent first, and a
# lower signal is read first.
start_inner --rewrite=1:0 --rewrite 15:3
kill -HUP "$wpid"
next_line
expect_text SIGHUP kill pid=$$ passed=none
term_as_quit

# JSON says the same.
start_inner -j -r TERM:QUIT
kill -TERM "$wpid"
next_line
expect_json '"signal":"SIGTERM"' '"passed":"SIGQUIT"'
next_line
expect_json '"signal":"SIGCHLD"' '"exit_status":0'
finish 0

# --exclude TERM: not logged, passed on all the same, and sigfd-watch
# lives on to reap COMMAND.
start_inner -x TERM
kill -TERM "$wpid"
next_line
expect_text SIGCHLD child-exited status=0
finish 0
inner_got SIGTERM "$outer"

# --success-status: 143 from SIGTERM, and a plain exit status; others kept.
status=0
"$WATCH" -q -e 143 -- sh -c 'kill -TERM $$' >"$dir/o" 2>"$dir/e" || status=$?
[ $status = 0 ] || fail "-e 143, killed by SIGTERM: status $status, want 0"
status=0
"$WATCH" -q -e 3 --success-status=4 -- sh -c 'exit 4' >>"$dir/o" 2>>"$dir/e" || status=$?
[ $status = 0 ] || fail "-e 4, exit 4: status $status, want 0"
status=0
"$WATCH" -q -e 3 -- sh -c 'exit 5' >>"$dir/o" 2>>"$dir/e" || status=$?
[ $status = 5 ] || fail "-e 3, exit 5: status $status, want 5"
[ ! -s "$dir/o" ] && [ ! -s "$dir/e" ] || fail "-q: output: $(cat "$dir/o" "$dir/e")"

# A COMMAND that could not run ended with no status of its own: 127 (not
# found) and 126 (not runnable) are sigfd-watch's, never mapped to 0. One
# that ran and exited 127 is.
status=0
"$WATCH" -q -e 127 -- "$dir/none" 2>"$dir/e" || status=$?
[ $status = 127 ] || fail "-e 127, COMMAND not found: status $status, want 127"
status=0
"$WATCH" -q -e 126 -- "$dir" 2>"$dir/e" || status=$?
[ $status = 126 ] || fail "-e 126, COMMAND a directory: status $status, want 126"
grep -q "^sigfd-watch: cannot run '$dir'" "$dir/e" || fail "126: no message: $(cat "$dir/e")"
status=0
"$WATCH" -q -e 127 -- sh -c 'exit 127' 2>"$dir/e" || status=$?
[ $status = 0 ] || fail "-e 127, exit 127: status $status, want 0"

echo "$test_name: ok"
