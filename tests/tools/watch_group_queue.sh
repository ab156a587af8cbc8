#!/bin/sh
# SPDX-License-Identifier: MIT
# sigfd-watch -g -- COMMAND: a queued signal reaches each member of
# COMMAND's process group with its value and its sender's pid (issue 27,
# item 4; kill() to the group lost both). COMMAND is a shell with two
# probes in its group, each sigfd-watch in its plain mode, reporting to a
# file of its own. Then 20 values, while a third member forks a short-lived
# process after another (members appearing and going as the values are
# passed on): each probe gets every value, once, in order, and no passing
# on fails.
# shellcheck source=tests/tools/watch_lib.inc
. "$(dirname "$0")/watch_lib.inc"

mkfifo "$dir/ready" "$dir/hold"
exec 5<>"$dir/hold"

# RTMIN as the tools see it: musl's is 35, glibc's 34, and env(1), built
# against glibc, must ignore the one the tools send.
printf '#include <signal.h>\n#include <stdio.h>\nint main(void) { printf("%%d\\n", SIGRTMIN); return 0; }\n' |
	${CC:-cc} -x c -o "$dir/rtmin" - || fail "cannot build a probe of SIGRTMIN with ${CC:-cc}"
rtmin=$("$dir/rtmin")

# group N CHURN: sigfd-watch -g runs a shell with two probes (-c N RTMIN),
# and with CHURN a loop that runs /bin/true until $dir/stop exists. All but
# the probes (which take it) ignore RTMIN. Returns once both probes watch.
group() {
	start_watch -g -o - -x CHLD -- env --ignore-signal="$rtmin" sh -c '
		"$1" -c "$2" -o "$3/p1" RTMIN 2>"$3/ready" &
		"$1" -c "$2" -o "$3/p2" RTMIN 2>"$3/ready" &
		if [ "$4" = churn ]; then
			sh -c "while [ ! -e \"\$1/stop\" ]; do /bin/true; done" sh "$3" &
		fi
		wait' sh "$WATCH" "$1" "$dir" "$2"
	IFS= read -r line <&4 || fail "no running line"
	exec 6<"$dir/ready"
	IFS= read -r l1 <&6 && IFS= read -r l2 <&6 || fail "the probes did not start"
	exec 6<&-
}

# One value: both probes see it with the sender's pid, not the wrapper's.
group 1 ""
"$SEND" -q 42 RTMIN "$wpid" &
spid=$!
wait "$spid"
next_line
expect_text SIGRTMIN sigqueue pid="$spid" value=42
finish 0
for p in p1 p2; do
	line=$(cat "$dir/$p")
	expect_text SIGRTMIN sigqueue pid="$spid" value=42
done

# 20 values while the group changes.
rm -f "$dir/p1" "$dir/p2" "$dir/stop"
group 20 churn
i=1
while [ $i -le 20 ]; do
	"$SEND" -q $i RTMIN "$wpid"
	i=$((i + 1))
done
i=1
while [ $i -le 20 ]; do
	next_line
	case "$line " in *" SIGRTMIN sigqueue "*" value=$i "*) ;; *) fail "want value=$i in: $line" ;; esac
	i=$((i + 1))
done
: >"$dir/stop"
finish 0
for p in p1 p2; do
	got=$(sed -n 's/.* value=\([0-9]*\).*/\1/p' "$dir/$p" | tr '\n' ' ')
	[ "$got" = "$(seq 1 20 | tr '\n' ' ')" ] || fail "$p got values: $got"
done

echo "$test_name: ok"
