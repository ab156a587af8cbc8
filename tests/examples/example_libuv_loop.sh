#!/bin/sh
# SPDX-License-Identifier: MIT
# examples/libuv-loop.c, when libuv1-dev is installed (tests/examples/example_loops.inc).
set -eu
# shellcheck source=tests/examples/example_loops.inc
. "$(dirname "$0")/example_loops.inc"
event_loop_example libuv-loop libuv libuv1-dev
