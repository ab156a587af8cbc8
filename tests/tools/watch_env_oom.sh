#!/bin/sh
# SPDX-License-Identifier: MIT
# Out of memory while taking SIGFD_WATCH_OPTIONS (tools/watch_env.c) is a
# system error, as sigfd-watch(1) lists them: status 3 without a COMMAND,
# 125 with one, and a line naming the variable. Not 2: the arguments are
# fine. The limit is the least address space (RLIMIT_AS) in which
# sigfd-watch --version runs with a variable of the same size under
# another name; taking a 120 KB value needs about 600 KB more. prlimit(1)
# sets it, not the shell's ulimit: the shell would need memory under it too.
# shellcheck source=tests/tools/watch_lib.inc
. "$(dirname "$0")/watch_lib.inc"
command -v prlimit >/dev/null 2>&1 || { echo "SKIPPED: no prlimit (util-linux)"; exit 77; }

words=$(awk 'BEGIN { for (i = 0; i < 40000; i++) printf "-q "; }')
# fits KB ARGS...: sigfd-watch ARGS ends with status 0 in KB of address
# space, with the words in a variable sigfd-watch does not read.
fits() {
	kb=$1
	shift
	SIGFD_WATCH_OPTIONZ=$words prlimit --as=$((kb * 1024)) -- "$WATCH" "$@" >/dev/null 2>&1
}
lo=0 hi=4194304
if [ -n "$WRAP" ] || ! fits $hi --version; then
	echo "SKIPPED: sigfd-watch does not run in $hi KB of address space here (valgrind, or a sanitizer's shadow memory)"
	exit 77
fi
while [ $((hi - lo)) -gt 4 ]; do
	mid=$(((lo + hi) / 2))
	if fits $mid --version; then hi=$mid; else lo=$mid; fi
done

# oom WANT ARGS...: the status and the one line, with the variable itself.
oom() {
	want=$1
	shift
	rc=0
	SIGFD_WATCH_OPTIONS=$words prlimit --as=$((hi * 1024)) -- "$WATCH" "$@" >"$dir/out" 2>"$dir/err" || rc=$?
	[ "$rc" = "$want" ] || fail "sigfd-watch $* out of memory: status $rc, want $want; $(cat "$dir/err")"
	[ "$(cat "$dir/err")" = "sigfd-watch: SIGFD_WATCH_OPTIONS: out of memory" ] ||
		fail "sigfd-watch $*: stderr '$(cat "$dir/err")'"
	[ ! -s "$dir/out" ] || fail "sigfd-watch $*: wrote to stdout"
}
oom 3 --version
oom 3 -t 0 USR1
oom 125 -- true
echo "out of memory in SIGFD_WATCH_OPTIONS, in $hi KB of address space: status 3, 125 with a COMMAND"
