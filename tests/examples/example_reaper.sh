#!/bin/sh
# SPDX-License-Identifier: MIT
# examples/reaper: 100 children exit at once; all 100 are reaped, however
# many SIGCHLD records they coalesced into (printed: the figure varies).
set -eu
# shellcheck disable=SC2086 # WRAP is a command line, split on purpose
out=$(${WRAP:-} "$BUILD/examples/reaper" 100)
case $out in
"reaper: 100 children reaped from "[0-9]*" SIGCHLD record"*) echo "$out" ;;
*) echo "example_reaper: $out" >&2; exit 1 ;;
esac
