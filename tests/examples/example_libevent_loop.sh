#!/bin/sh
# SPDX-License-Identifier: MIT
# examples/libevent-loop.c, when libevent-dev is installed (tests/examples/example_loops.inc).
set -eu
# shellcheck source=tests/examples/example_loops.inc
. "$(dirname "$0")/example_loops.inc"
event_loop_example libevent-loop libevent libevent-dev
