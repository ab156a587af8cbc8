#!/bin/sh
# SPDX-License-Identifier: MIT
# examples/glib-loop.c, when libglib2.0-dev is installed (tests/examples/example_loops.inc).
set -eu
# shellcheck source=tests/examples/example_loops.inc
. "$(dirname "$0")/example_loops.inc"
event_loop_example glib-loop glib-2.0 libglib2.0-dev
