#!/bin/sh
# SPDX-License-Identifier: MIT
# sigfd-watch -- COMMAND logs how COMMAND ended, always (issue 27, item 2).
# SIGCHLD is a standard signal: a second one sent while the first is still
# pending is merged into it, and the record carries the first child's pid
# and status only. An adopted orphan that exits just before COMMAND left the
# orphan's the only exit record (1 in 20 runs). Here that happens every
# time: sigfd-watch is stopped (SIGSTOP), the orphan ends, then COMMAND, and
# only then is sigfd-watch continued. Each reaped child must have its own
# exit record, COMMAND's last. The stopped and ended states are read from
# /proc (a bounded poll: nothing else says when the kernel has sent SIGCHLD).
# shellcheck source=tests/tools/watch_lib.inc
. "$(dirname "$0")/watch_lib.inc"

mkfifo "$dir/go" "$dir/gate" "$dir/gate2"

# stat_field PID N: field N of /proc/PID/stat, counted after the command
# name (1: state, 2: ppid).
stat_field() {
	sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d ' ' -f "$2"
}
# wait_stat PID N VALUE: until field N is VALUE (at most 10 s).
wait_stat() {
	i=0
	while [ "$(stat_field "$1" "$2")" != "$3" ]; do
		i=$((i + 1))
		[ $i -lt 2000 ] || fail "pid $1: stat field $2 never became $3"
		sleep 0.005
	done
}

for json in "" -j; do
	# COMMAND orphans a process (its subshell exits at once), which comes
	# to sigfd-watch, then waits for gate2 and exits 5.
	start_watch -o - $json -x CONT -- sh -c '( sh -c "echo \$\$ >\"\$1\"; read x <\"\$2\"; exit 6" sh "$1" "$2" & ); read x <"$3"; exit 5' sh "$dir/go" "$dir/gate" "$dir/gate2"
	running
	IFS= read -r orphan <"$dir/go" || fail "no orphan"
	wait_stat "$orphan" 2 "$wpid"
	kill -STOP "$wpid"
	wait_stat "$wpid" 1 T
	echo >"$dir/gate"
	wait_stat "$orphan" 1 Z
	echo >"$dir/gate2"
	wait_stat "$cpid" 1 Z
	kill -CONT "$wpid"
	next_line
	if [ -z "$json" ]; then
		expect_text SIGCHLD child-exited pid="$orphan" status=6
		next_line
		expect_text SIGCHLD child-exited pid="$cpid" status=5
	else
		expect_json '"signal":"SIGCHLD"' "\"ssi_pid\":$orphan" '"exit_status":6'
		next_line
		expect_json '"signal":"SIGCHLD"' "\"ssi_pid\":$cpid" '"exit_status":5'
	fi
	finish 5
done

echo "$test_name: ok"
