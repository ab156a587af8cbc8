#!/bin/sh
# SPDX-License-Identifier: MIT
# SIGFD_WATCH_OPTIONS (tools/watch_env.c): its words are sigfd-watch options
# taken before the command line's, for images whose ENTRYPOINT is fixed.
#  - they act (-q -e 3 turns COMMAND's status 3 into 0, --json -o FILE);
#  - the command line's own option wins (-o), and -x adds to theirs;
#  - a blank variable is no variable; a bad word fails with status 2 and
#    names the variable; "--" (a COMMAND) is refused, and so is a last
#    word that would take the command line's first as its value;
#  - COMMAND gets the variable unchanged.
# Every COMMAND here ends by itself; its signals go to sigfd-watch before
# it exits, so the log has them before its SIGCHLD.
set -eu
WATCH=$BUILD/bin/sigfd-watch
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "watch_env: $*"; exit 1; }
# run ENV ARGS...: sigfd-watch with SIGFD_WATCH_OPTIONS=ENV; status in rc,
# standard error in $dir/err.
run() {
	v=$1
	shift
	rc=0
	SIGFD_WATCH_OPTIONS=$v "$WATCH" "$@" 2>"$dir/err" || rc=$?
}
# Signals COMMAND sends its parent, sigfd-watch, ignoring what comes back.
signals='trap "" HUP USR1 USR2; kill -USR1 $PPID; kill -USR2 $PPID; kill -HUP $PPID'

run '' -q -- sh -c 'exit 3'
[ $rc = 3 ] || fail "no variable: status $rc, want 3"
run '-q -e 3' -- sh -c 'exit 3'
[ $rc = 0 ] || fail "'-q -e 3': status $rc, want 0"
[ ! -s "$dir/err" ] || fail "'-q -e 3' still logged: $(cat "$dir/err")"
run "$(printf ' \t-q\n -e  3 ')" -- sh -c 'exit 3'
[ $rc = 0 ] || fail "words apart by tabs and newlines: status $rc, want 0"

run "--json -o $dir/a" -- sh -c "$signals"
[ $rc = 0 ] || fail "--json -o: status $rc; $(cat "$dir/err")"
grep -q '^{"time":[0-9.]*,"signal":"SIGUSR2",' "$dir/a" || fail "--json -o: no JSON SIGUSR2 record in: $(cat "$dir/a")"

run "--json -o $dir/b" -o "$dir/c" -- sh -c "$signals"
[ $rc = 0 ] || fail "two -o: status $rc; $(cat "$dir/err")"
[ ! -e "$dir/b" ] || fail "the variable's -o won over the command line's"
grep -q '"signal":"SIGUSR1"' "$dir/c" || fail "the command line's -o got no record: $(cat "$dir/c")"

run "-x USR2 -o $dir/d" -x USR1 -- sh -c "$signals"
[ $rc = 0 ] || fail "two -x: status $rc; $(cat "$dir/err")"
grep -q ' SIGHUP ' "$dir/d" || fail "-x: SIGHUP not logged: $(cat "$dir/d")"
! grep -q -e ' SIGUSR1 ' -e ' SIGUSR2 ' "$dir/d" || fail "-x of both not kept: $(cat "$dir/d")"

run ' ' -q -- sh -c 'exit 4'
[ $rc = 4 ] || fail "a blank variable: status $rc, want 4"

run '--bogus' -q -- true
[ $rc = 2 ] || fail "--bogus: status $rc, want 2"
grep -q "unknown option '--bogus' (SIGFD_WATCH_OPTIONS is set" "$dir/err" || fail "--bogus: $(cat "$dir/err")"
run '-q -- true' -- true
[ $rc = 2 ] || fail "'--' in the variable: status $rc, want 2"
grep -q "SIGFD_WATCH_OPTIONS may hold options only" "$dir/err" || fail "'--': $(cat "$dir/err")"

# A last word whose value would be the command line's first: -o took
# USR1 below as its log file's name.
abs=$(cd "$BUILD/bin" && pwd)/sigfd-watch
for last in -o -jo --output --out; do
	rc=0
	(cd "$dir" && SIGFD_WATCH_OPTIONS=$last "$abs" USR1 -- true) 2>"$dir/err" || rc=$?
	[ $rc = 2 ] || fail "'$last' last: status $rc, want 2"
	grep -q "SIGFD_WATCH_OPTIONS: its last word '$last' needs a value, there" "$dir/err" ||
		fail "'$last' last: $(cat "$dir/err")"
	[ ! -e "$dir/USR1" ] || fail "'$last' last: the log went to a file named USR1"
done

run '-q' -- sh -c '[ "$SIGFD_WATCH_OPTIONS" = -q ]'
[ $rc = 0 ] || fail "COMMAND did not get SIGFD_WATCH_OPTIONS=-q"
echo "SIGFD_WATCH_OPTIONS: -q -e, --json -o, command line wins, -x adds, blank, errors, a value-less last word, passed on"
