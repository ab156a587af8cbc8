#!/bin/sh
# SPDX-License-Identifier: MIT
# SIGCHLD reports: sigfd-watch runs no child itself, so the children are
# started by the shell process just before it execs sigfd-watch. One exits 3,
# one is killed by SIGTERM; each waits on a FIFO so that it ends only once
# sigfd-watch is watching (an unblocked SIGCHLD would be discarded), and the
# second only after the first is reported (two pending SIGCHLDs coalesce).
# shellcheck source=tests/tools/watch_lib.inc
. "$(dirname "$0")/watch_lib.inc"

children() {
	sh -c 'read x <"$0"; exit 3' "$dir/go1" </dev/null >/dev/null 2>&1 &
	echo $! >"$dir/c1"
	sh -c 'read x <"$0"; kill -TERM $$' "$dir/go2" </dev/null >/dev/null 2>&1 &
	echo $! >"$dir/c2"
}

run() { # run text|json
	mkfifo "$dir/go1" "$dir/go2"
	if [ "$1" = json ]; then
		start_watch --prelude children --json --count 2 --timeout 60 CHLD
	else
		start_watch --prelude children --count 2 --timeout 60 CHLD
	fi
	c1=$(cat "$dir/c1")
	c2=$(cat "$dir/c2")

	echo >"$dir/go1"
	next_line
	if [ "$1" = json ]; then
		expect_json '"signal":"SIGCHLD"' '"origin":"child-exited"' "\"ssi_pid\":$c1" \
			'"comm":"sh"' "\"ssi_uid\":$me_uid" '"ssi_status":3' '"exit_status":3'
	else
		expect_text SIGCHLD child-exited pid="$c1" comm=sh uid="$me_uid" user="$me_user" status=3
	fi

	echo >"$dir/go2"
	next_line
	if [ "$1" = json ]; then
		expect_json '"signal":"SIGCHLD"' '"origin":"child-killed"' "\"ssi_pid\":$c2" \
			'"ssi_status":15' '"status_signal":"SIGTERM"'
	else
		expect_text SIGCHLD child-killed pid="$c2" uid="$me_uid" status=SIGTERM
	fi
	finish 0
	rm -f "$dir/go1" "$dir/go2"
}

run text
run json
echo "$test_name: ok"
