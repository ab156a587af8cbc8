#!/bin/sh
# SPDX-License-Identifier: MIT
# Where sigfd-watch cannot be stopped (the kernel drops a stop for pid 1 of a
# namespace, and for a process group it calls orphaned, as a session
# leader's is), a COMMAND stopped by SIGTSTP is continued at once, as it
# would have been without sigfd-watch: it does not stay stopped for ever.
# COMMAND stops itself, then says it goes on and exits 5.
# shellcheck source=tests/tools/watch_lib.inc
. "$(dirname "$0")/watch_lib.inc"

cmd='kill -TSTP $$; echo continued; exit 5'

# A session leader: its group is orphaned.
status=0
out=$(setsid "$WATCH" -q -- sh -c "$cmd") || status=$?
[ "$out" = continued ] && [ $status = 5 ] || fail "session leader: '$out', status $status"

# Pid 1 of a pid namespace (and a user namespace when not root).
if [ "$(id -u)" = 0 ]; then set -- -fp; else set -- -Urfp; fi
if ! unshare "$@" true 2>/dev/null; then
	echo "no pid namespace here (unshare $*): pid 1 not tried"
	exit 77
fi
status=0
out=$(unshare "$@" "$WATCH" -q -- sh -c "$cmd") || status=$?
[ "$out" = continued ] && [ $status = 5 ] || fail "pid 1: '$out', status $status"
echo "$test_name: ok"
