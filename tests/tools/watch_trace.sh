#!/bin/sh
# SPDX-License-Identifier: MIT
# sigfd-watch --trace: the signals the kernel generates for COMMAND's tree,
# from tracefs, beside those sigfd-watch receives (issue 27, item 6). What
# no sigfd sees: a SIGKILL COMMAND sends its child, a signal sent to COMMAND
# directly (here ignored by it: result=ignored), the child's SIGCHLD to
# COMMAND, an OOM kill (where a memory cgroup can be made). Each is compared with a plain tracepoint reader (cat of another
# tracefs instance's trace_pipe) on the same run. COMMAND's end is still the
# last record. Where tracefs cannot be used (here: as user nobody), a clear
# message, and COMMAND runs all the same. Needs root (SKIPPED otherwise);
# tracefs is mounted for the test if it is not, and unmounted after.
# shellcheck source=tests/tools/watch_lib.inc
. "$(dirname "$0")/watch_lib.inc"

[ "$(id -u)" = 0 ] || { echo "SKIPPED: --trace needs root (tracefs)"; exit 77; }
T=/sys/kernel/tracing
mounted=
if [ ! -d $T/instances ]; then
	mount -t tracefs nodev $T 2>/dev/null || { echo "SKIPPED: no tracefs here"; exit 77; }
	mounted=1
fi
[ -d $T/events/signal/signal_generate ] || { echo "SKIPPED: no signal_generate event"; exit 77; }
ref=$T/instances/sigfd-watch-test-$$
refpid=
cleanup() {
	set +e
	[ -n "$refpid" ] && kill "$refpid" 2>/dev/null && wait "$refpid" 2>/dev/null
	[ -d "$ref" ] && rmdir "$ref"
	[ -n "$mounted" ] && umount $T
	[ -n "$wpid" ] && kill -KILL "$wpid" 2>/dev/null
	rm -rf "$dir"
}
trap 'st=$?; cleanup; exit $st' EXIT

# The reference reader: its own instance, signal_generate alone.
mkdir "$ref"
echo 4096 >"$ref/buffer_size_kb"
echo 1 >"$ref/events/signal/signal_generate/enable"
cat "$ref/trace_pipe" >"$dir/ref" &
refpid=$!

mkfifo "$dir/go" "$dir/rel"
for json in "" -j; do
	start_watch -o - -T $json -- sh -c 'trap "" USR1; sleep 1000 & kill -KILL $!; wait; echo "$! $$" >"$1"; read x <"$2"; exit 3' sh "$dir/go" "$dir/rel"
	IFS= read -r line <&4 || fail "no tracing line"
	case $line in "sigfd-watch: tracing the signals generated for pid $wpid's descendants"*) ;; *) fail "tracing line: $line" ;; esac
	IFS= read -r line <&4 || fail "no running line"
	read -r child cpid <"$dir/go" || fail "no word from COMMAND"
	kill -USR1 "$cpid"
	echo >"$dir/rel"
	if [ -z "$json" ]; then
		next_line
		expect_text SIGKILL traced how=kill to="$child" by="$cpid" by_comm=sh result=delivered
		next_line
		expect_text SIGCHLD traced how=child-killed to="$cpid" to_comm=sh by="$child" result=delivered
		next_line
		expect_text SIGUSR1 traced how=kill to="$cpid" to_comm=sh by=$$ result=ignored
		next_line
		expect_text SIGCHLD child-exited pid="$cpid" status=3
	else
		next_line
		expect_json '"signal":"SIGKILL"' '"origin":"traced"' '"how":"kill"' "\"to_pid\":$child" "\"by_pid\":$cpid" '"result":"delivered"'
		next_line
		expect_json '"signal":"SIGCHLD"' '"origin":"traced"' "\"to_pid\":$cpid"
		next_line
		expect_json '"signal":"SIGUSR1"' "\"to_pid\":$cpid" "\"by_pid\":$$" '"result":"ignored"'
		next_line
		expect_json '"signal":"SIGCHLD"' '"origin":"child-exited"' "\"ssi_pid\":$cpid" '"exit_status":3'
	fi
	finish 3
	# The reference reader saw the same three, sender and target alike.
	for want in "-$cpid .* sig=9 .* pid=$child grp=1 res=0" "-$child .* sig=17 .* pid=$cpid grp=1 res=0" \
		"-$$ .* sig=10 .* pid=$cpid grp=1 res=1"; do
		i=0
		until grep -q -- "$want" "$dir/ref"; do
			i=$((i + 1))
			[ $i -lt 400 ] || fail "the reference reader never saw: $want"
			sleep 0.005
		done
	done
	[ ! -d "$T/instances/sigfd-watch-$wpid" ] || fail "the instance was left behind"
done

# An OOM kill, in a memory cgroup of 30 MB (cgroup v1's controller, where
# there is one): dd's 100 MB buffer. The kernel's SIGKILL and the victim.
cg=/sys/fs/cgroup/memory/sigfd-watch-test-$$
if [ -w /sys/fs/cgroup/memory ] && mkdir "$cg" 2>/dev/null; then
	echo 30M >"$cg/memory.limit_in_bytes"
	start_watch -o - -T -x CHLD -- sh -c 'echo $$ >"$1/tasks"; exec dd if=/dev/zero of=/dev/null bs=100M count=1 2>/dev/null' sh "$cg"
	IFS= read -r line <&4 || fail "no tracing line"
	running
	next_line
	expect_text SIGKILL traced how=kernel to="$cpid" to_comm=dd result=delivered
	next_line
	expect_text SIGKILL oom-victim to="$cpid" to_comm=dd
	finish 137
	rmdir "$cg"
else
	echo "the OOM part not run: no cgroup v1 memory controller to limit"
fi

# Unavailable: a clear message, and COMMAND runs.
if command -v setpriv >/dev/null 2>&1; then
	WRAP="setpriv --reuid=nobody --regid=nogroup --clear-groups"
	start_watch -o - -T -- sh -c 'exit 4'
	IFS= read -r line <&4 || fail "no message"
	case $line in "sigfd-watch: --trace: not available (tracefs needs root"*"the log has only the signals sigfd-watch receives") ;;
	*) fail "unavailable message: $line" ;; esac
	IFS= read -r line <&4 || fail "no running line"
	next_line
	expect_text SIGCHLD child-exited status=4
	finish 4
fi
echo "$test_name: ok"
