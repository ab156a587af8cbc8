#!/bin/sh
# SPDX-License-Identifier: MIT
# Names are escaped: a sender whose command name holds a quote, a backslash,
# a tab, a byte that is not UTF-8 and a UTF-8 letter must come out as one
# KEY=VALUE word in text and as a valid JSON string.
# shellcheck source=tests/tools/watch_lib.inc
. "$(dirname "$0")/watch_lib.inc"

# In a background subshell: rename this very process, signal sigfd-watch,
# and stay alive (so its comm can be read) until released through the FIFO.
sender() { # sender PID
	printf 'a"b\\c\td\377\303\251' >/proc/self/comm
	kill -USR1 "$1"
	read -r _ <"$dir/go"
}

run() { # run text|json
	mkfifo "$dir/go"
	if [ "$1" = json ]; then
		start_watch --json --count 1 --timeout 60 USR1
	else
		start_watch --count 1 --timeout 60 USR1
	fi
	sender "$wpid" &
	spid=$!
	next_line
	echo >"$dir/go"
	wait "$spid"
	if [ "$1" = json ]; then
		expect_json "\"ssi_pid\":$spid" '"comm":"a\"b\\c\td\ufffdé"'
	else
		expect_text SIGUSR1 kill pid="$spid" 'comm=a"b\x5cc\x09d\xffé'
	fi
	finish 0
	rm -f "$dir/go"
}

run text
run json
echo "$test_name: ok"
