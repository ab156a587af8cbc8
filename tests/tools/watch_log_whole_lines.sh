#!/bin/sh
# SPDX-License-Identifier: MIT
# Each record of sigfd-watch's log is one write() of one line, so a
# COMMAND writing to the same standard error cannot tear it: COMMAND writes
# '~' to stderr as fast as it can (no newline, a character no record has)
# while 50 queued signals come to sigfd-watch, which logs each (-r RTMIN:0:
# not passed on). Every line read must be '~'s, then one whole record; and
# the same for the JSON log. Issue 27: records came out in up to 133
# fragments, one write() per piece of a field.
# shellcheck source=tests/tools/watch_lib.inc
. "$(dirname "$0")/watch_lib.inc"

COUNT=50

check_log() {
	rm -f "$dir/stop"
	start_watch "$@" -r RTMIN:0 -- sh -c "while [ ! -e '$dir/stop' ]; do printf '~~~~~~~~~~~~~~~~' >&2; done"
	i=1
	while [ $i -le $COUNT ]; do
		"$SEND" -q $i RTMIN "$wpid" || fail "sigfd-send -q $i RTMIN"
		i=$((i + 1))
	done
	seen=0
	while [ $seen -lt $COUNT ]; do
		IFS= read -r line <&4 || fail "$*: stderr ended after $seen records"
		line=${line##*~}
		case $line in
		*'~'*) fail "$*: a record torn by COMMAND's output: $line" ;;
		'' | "sigfd-watch: running pid "*) continue ;;
		esac
		seen=$((seen + 1))
		if [ "${1:-}" = --json ]; then
			expect_json "\"ssi_int\":$seen"
		else
			expect_text SIGRTMIN sigqueue value=$seen
		fi
	done
	# COMMAND may be blocked writing: drain while it stops.
	touch "$dir/stop"
	cat <&4 >/dev/null &
	drain=$!
	status=0
	wait "$wpid" || status=$?
	wpid=
	wait $drain
	exec 3<&- 4<&-
	[ $status = 0 ] || fail "$*: exit status $status"
}

check_log
check_log --json
echo "$COUNT queued signals logged as whole lines beside a chatty COMMAND, text and JSON"
