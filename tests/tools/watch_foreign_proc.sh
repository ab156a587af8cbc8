#!/bin/sh
# SPDX-License-Identifier: MIT
# sigfd-watch as pid 1 of a PID namespace made without a /proc of its own
# (unshare -pf, no --mount-proc): /proc shows the parent namespace, where
# pid 2 is another process (kthreadd on the host), so a sender is named by
# no comm= at all rather than a wrong one. With the namespace's own /proc
# the same sender is named (comm=sh). Needs root for the namespaces.
# shellcheck source=tests/tools/watch_lib.inc
. "$(dirname "$0")/watch_lib.inc"
need_pid_namespace

# COMMAND signals its parent, pid 1: sigfd-watch logs the sender, pid 2.
# shellcheck disable=SC2086 # WRAP is a command line, split on purpose
unshare -pf $WRAP "$WATCH" -o "$dir/foreign" USR1 -- sh -c 'kill -USR1 1; exit 0' || :
grep -q ' SIGUSR1 kill pid=2 ' "$dir/foreign" || fail "no SIGUSR1 from pid 2: $(cat "$dir/foreign")"
if grep -q 'comm=' "$dir/foreign"; then
	fail "a name from another namespace's /proc: $(cat "$dir/foreign")"
fi
# shellcheck disable=SC2086
unshare -pf --mount-proc $WRAP "$WATCH" -o "$dir/own" USR1 -- sh -c 'kill -USR1 1; exit 0' || :
grep -q ' SIGUSR1 kill pid=2 .*comm=sh' "$dir/own" || fail "not named in its own /proc: $(cat "$dir/own")"
echo "watch_foreign_proc: no name through a foreign /proc, comm=sh through its own"
