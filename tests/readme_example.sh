#!/bin/sh
# SPDX-License-Identifier: MIT
# The README's poll-loop example compiles warning-free against the library
# and does what the README says: SIGCHLD keeps it looping, SIGTERM ends it
# naming the sender's pid.
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sed -n '/^```c$/,/^```$/p' README.md | sed '1d;$d' >"$dir/example.c"
[ -s "$dir/example.c" ] || { echo "no C example in README.md"; exit 1; }
# TEST_CFLAGS carries the sanitizer flags the library was built with.
${CC:-cc} ${TEST_CFLAGS:-} -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Iinclude -o "$dir/example" "$dir/example.c" \
	"$BUILD/lib/libsigfd.a" -pthread
sh -c '
	"$1" >"$2/out" &
	loop=$!
	# The example blocks the signals before it reads: wait until it is in
	# poll (state S) with the mask set, seen in /proc, then signal it.
	i=0
	until grep -q "^SigBlk:.*[1-9a-f]" /proc/$loop/status 2>/dev/null &&
		[ "$(cut -d" " -f3 /proc/$loop/stat)" = S ]; do
		i=$((i + 1)); [ $i -lt 2000 ] || exit 3
		sleep 0.005
	done
	echo $$ >"$2/sender"
	kill -CHLD $loop
	kill -TERM $loop
	wait $loop
' sh "$dir/example" "$dir"
grep -qx "signal 15 from pid $(cat "$dir/sender"): bye" "$dir/out" || { cat "$dir/out"; exit 1; }
