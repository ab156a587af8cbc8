#!/bin/sh
# SPDX-License-Identifier: MIT
# examples/sd-event-loop.c, when libsystemd-dev is installed (tests/examples/example_loops.inc).
set -eu
# shellcheck source=tests/examples/example_loops.inc
. "$(dirname "$0")/example_loops.inc"
event_loop_example sd-event-loop libsystemd libsystemd-dev
