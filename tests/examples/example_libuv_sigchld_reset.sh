#!/bin/sh
# SPDX-License-Identifier: MIT
# examples/libuv-loop.c when libuv, closing its last process handle, sets
# SIGCHLD back to SIG_DFL while a SIGCHLD of one of the example's own
# children is pending: the kernel discards that SIGCHLD, no record of it ever
# comes, and the example must still reap and report the child.
# tests/examples/preload/late_children.c holds the forked child in _exit() until that
# moment, so the race happens every run; the example forks 1 child of 3.
set -eu
# shellcheck source=tests/examples/example_loops.inc
. "$(dirname "$0")/example_loops.inc"
so=$BUILD/tests/examples/preload/late_children.so
event_loop_built libuv-loop libuv libuv1-dev
# Built with the example (tests/examples/tests.mk).
[ -f "$so" ] || fail "$so missing though examples/libuv-loop was built"
# Only the example gets the hook; a preload must come before a sanitizer's
# runtime, which AddressSanitizer checks.
WRAP="env LD_PRELOAD=$so SIGFD_TEST_LATE_CHILDREN=1 ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 $WRAP"
run_loop libuv-loop TERM
