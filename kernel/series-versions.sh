#!/bin/sh
# SPDX-License-Identifier: MIT
# The series exists twice, for 6.12 and 7.3, and most commits must edit
# both copies alike. What the two kernels make different (the 7.3 timer
# rework, kzalloc_obj(), the order of exit_signals()) is recorded in
# kernel/series-versions.diff; anything else differing is a copy that
# drifted.
#   sh kernel/series-versions.sh           record what differs now
#   sh kernel/series-versions.sh --check   exit 1, naming the patch, where
#                                          the copies differ otherwise
# Compared per patch number: 0001 and 0003-0007. 0002 is each kernel's own
# (6.12: posixtimer_rearm() finds the timer in a given process; 7.3:
# posixtimer_deliver_signal_unlocked()); 0008 has one source
# (kernel/selftest.sh). Compared: the subject and message, and the lines each patch
# adds or removes, without positions or context, so a line added to both
# copies alike changes nothing.
set -eu
cd "$(dirname "$0")/.."

RECORD=kernel/series-versions.diff

# Patch $1's message and changed lines, in order.
content() {
	awk '/^Subject:/ { sub(/^Subject: \[PATCH [0-9]+\/[0-9]+\] /, ""); msg = 1 }
	     msg && /^---$/ { msg = 0; body = 1; next }
	     msg { print "  " $0; next }
	     body && /^-- $/ { exit }
	     body && /^(\+\+\+|---) / { next }
	     body && /^[-+]/' "$1"
}

differences() {
	for old in kernel/6.12/0001-*.patch kernel/6.12/000[3-7]-*.patch; do
		n=$(basename "$old" | cut -c1-4)
		new=$(ls kernel/7.3/"$n"-*.patch)
		echo "== $n"
		# Content only: positions would change with any edit to both.
		content "$old" >"$tmp/old"
		content "$new" >"$tmp/new"
		diff --unchanged-line-format= --old-line-format='6.12 %L' \
			--new-line-format='7.3  %L' "$tmp/old" "$tmp/new" || true
	done
}

# Patch number $1's lines in a record $2.
section() {
	awk -v n="== $1" '/^== / { in_it = ($0 == n); next } in_it' "$2"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case ${1-} in
'')
	differences >"$RECORD"
	;;
--check)
	differences >"$tmp/now"
	cmp -s "$RECORD" "$tmp/now" && exit 0
	# Name the patches whose differences changed.
	for n in $(grep '^== ' "$tmp/now" | cut -c4-); do
		section "$n" "$RECORD" >"$tmp/was"
		section "$n" "$tmp/now" >"$tmp/is"
		cmp -s "$tmp/was" "$tmp/is" ||
			echo "kernel/*/$n-*.patch: the 6.12 and 7.3 copies differ other than $RECORD records: edit both alike, or, where the kernels differ, record it (sh kernel/series-versions.sh)" >&2
	done
	exit 1
	;;
*)
	echo "usage: sh kernel/series-versions.sh [--check]" >&2
	exit 2
	;;
esac
