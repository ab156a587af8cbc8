#!/bin/sh
# SPDX-License-Identifier: MIT
# The model-based differential test, a short run: 20 seeded sequences, local
# mode against a raw signalfd, share mode against the model of sigfd(3)
# (fuzz/model_diff.c). make fuzz-check runs a thousand; a failure prints
# the seed and the command that replays it.
# time-limit: 120
set -eu
[ -z "${WRAP:-}" ] || { echo "SKIPPED: under valgrind, which reserves a real-time signal the model sends"; exit 77; }
exec $WRAP "$BUILD/fuzz/model_diff" --first 1 --seeds 20 --ops 150
