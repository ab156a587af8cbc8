#!/bin/sh
# SPDX-License-Identifier: MIT
# build-independent: drives the Makefile in a build directory of its own
# time-limit: 240
# Makes that share a build directory at once (the suite's install and CMake
# tests do) each check the flags stamp, and remake the generated makefile
# of the event-loop examples when it is older than its inputs, without
# tripping on the others': 4 makes at once, 4 rounds (that makefile aged
# before each), every one succeeds and prints nothing, the stamp stays the
# line and the makefile what one make alone writes.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
b=$tmp/b
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory B="$b" lib; }
fail() { echo "$*"; exit 1; }

mk >/dev/null 2>&1 || fail "the first build failed"
stamp=$(cat "$b/flags")
loops_mk=$b/examples/event-loops.mk
loops=$(cat "$loops_mk") || fail "no $loops_mk"
round=0
while [ $round -lt 4 ]; do
	touch -d '1 hour ago' "$loops_mk"
	pids=
	for i in 1 2 3 4; do
		mk >"$tmp/out.$i" 2>&1 &
		pids="$pids $!"
	done
	i=0
	for pid in $pids; do
		i=$((i + 1))
		wait "$pid" || { cat "$tmp/out.$i"; fail "round $round: make $i of 4 failed"; }
		# A failed remake of an -include'd makefile leaves make's status 0.
		[ ! -s "$tmp/out.$i" ] || { cat "$tmp/out.$i"; fail "round $round: make $i of 4 complained"; }
	done
	[ "$(cat "$b/flags")" = "$stamp" ] || fail "round $round: the stamp changed"
	[ "$(cat "$loops_mk")" = "$loops" ] || fail "round $round: $loops_mk changed"
	round=$((round + 1))
done
left=$(find "$b" -name '*.tmp*')
[ -z "$left" ] || fail "left behind: $left"
