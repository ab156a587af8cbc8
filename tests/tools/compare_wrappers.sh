#!/bin/sh
# SPDX-License-Identifier: MIT
# tools/compare-wrappers.sh, the script behind docs/init-wrappers.md, runs
# to the end: a table of 15 rows, sigfd-watch's column as its own tests
# show it, and every other wrapper's cells measured (no empty cell) or
# "not installed" (tests/check-deps installs tini, dumb-init and catatonit;
# without one of them the test is SKIPPED).
# time-limit: 300
set -eu
if [ -n "${WRAP:-}" ]; then
	echo "the valgrind pass: the comparison runs no test program under valgrind"
	exit 77
fi
# Run with signal 33 ignored, as a CI runner once left it: libc cannot
# reset it, and under TSan the wrapper's forked child lost it, so the mask
# row read "33 no longer ignored". The script leaves libc's own signals out.
ignore_33=
if [ "$(uname -m)" = x86_64 ] && command -v perl >/dev/null; then
	# rt_sigaction(33, {SIG_IGN}, NULL, 8): syscall 13 on x86_64.
	ignore_33='$sa = pack("QQQQ", 1, 0, 0, 0);
		syscall(13, 33, $sa, 0, 8) == 0 or die "rt_sigaction: $!\n"; exec @ARGV or die'
fi
run_script() {
	if [ -n "$ignore_33" ]; then
		perl -e "$ignore_33" sh "$@"
	else
		sh "$@"
	fi
}
out=$(BUILD=$BUILD run_script "$(dirname "$0")/../../tools/compare-wrappers.sh")
fail() {
	echo "compare_wrappers: $*" >&2
	printf '%s\n' "$out" >&2
	exit 1
}
[ "$(printf '%s\n' "$out" | wc -l)" = 17 ] || fail "not 2 + 15 lines"
# cell ROW COLUMN: the cell (columns from 1, the rows' names being 0).
cell() {
	printf '%s\n' "$out" | grep -F "| $1 |" | awk -F ' [|] ' -v c="$2" '{ print $(c + 1) }' | sed 's/ |$//'
}
pid1=yes pid1_both="yes: both"
[ "$(id -u)" = 0 ] || pid1="not measured (needs root)" pid1_both="not measured (needs root)"
while IFS='|' read -r row want; do
	got=$(cell "$row" 1)
	[ "$got" = "$want" ] || fail "sigfd-watch, $row: '$got', want '$want'"
done <<TABLE
forwards a signal (SIGUSR1) to COMMAND|yes
a queued value (sigqueue 42) reaches COMMAND|yes: value 42, the sender's pid
to COMMAND's process group (a grandchild)|yes (-g)
a queued value (sigqueue 42) to COMMAND's process group (a grandchild)|yes: value 42, the sender's pid (-g)
exit status: exit 3; killed by SIGTERM|3, 143
maps exit status 143 to 0|yes (-e 143)
rewrites SIGTERM to SIGQUIT|yes (-r TERM:QUIT)
reaps orphans as PID 1 (unshare -fp)|$pid1
reaps orphans as a subreaper|yes
job control in bash: Ctrl-Z/fg/Ctrl-C, Ctrl-Z/bg/fg, background read, tostop write|yes
SIGKILL when COMMAND ignores SIGTERM (0.5 s)|yes (-k 0.5)
COMMAND's signal mask and ignored set as started|yes (USR2 blocked, HUP ignored)
logs who sent a signal|yes: pid, command, uid, user
as PID 1, COMMAND exits: a setsid daemon and an adopted orphan get SIGTERM|$pid1_both
as PID 1, SIGTERM to the wrapper (docker stop): the same two get SIGTERM|$pid1_both
TABLE
missing=
for c in 2 3 4; do
	name=$(printf '%s\n' "$out" | head -n 1 | awk -F ' [|] ' -v c="$c" '{ print $(c + 1) }' | cut -d ' ' -f 1)
	printf '%s\n' "$out" | tail -n 15 | while IFS= read -r line; do
		v=$(printf '%s\n' "$line" | awk -F ' [|] ' -v c="$c" '{ print $(c + 1) }' | sed 's/ |$//')
		[ -n "$v" ] || fail "$name: an empty cell in: $line"
	done
	command -v "$name" >/dev/null 2>&1 || missing="$missing $name"
done
printf '%s\n' "$out"
if [ -n "$missing" ]; then
	echo "not installed, so not compared:$missing (apt-get install$missing)"
	exit 77
fi
