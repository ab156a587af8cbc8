#!/bin/sh
# SPDX-License-Identifier: MIT
# examples/poll-loop and examples/epoll-loop reap their children and end on
# SIGTERM or SIGINT (tests/examples/example_loops.inc, run_loop).
set -eu
# shellcheck source=tests/examples/example_loops.inc
. "$(dirname "$0")/example_loops.inc"
run_loop poll-loop TERM
run_loop epoll-loop TERM
run_loop poll-loop INT
run_loop epoll-loop INT
