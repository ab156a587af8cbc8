#!/bin/sh
# SPDX-License-Identifier: MIT
# make soak MINUTES=N: the share-mode soak driver (fuzz/soak.c) for N
# minutes, then one round of tests/share/share_stress and 20 model_diff
# sequences. The driver prints the tally: values sent, delivered, lost and
# duplicated (both must be 0), not delivered because the creator was killed
# or exec'd, and fds and forwarding threads left. SOAK_SEED replays a run.
set -u
B=${BUILD:?}
minutes=${MINUTES:-1}
# Harmless here (the driver forks its round's processes while it has one
# thread), needed by share_stress, whose children start threads.
export TSAN_OPTIONS="${TSAN_OPTIONS:-die_after_fork=0}"
seed=${SOAK_SEED:+--seed $SOAK_SEED}
$WRAP "$B/fuzz/soak" --seconds $((minutes * 60)) $seed || exit 1
if ! SIGFD_STRESS_FORKS=${SIGFD_STRESS_FORKS:-500} timeout -k 5 300 $WRAP "$B/tests/share/share_stress" >"$B/soak.log" 2>&1; then
	echo "soak: share_stress failed:"; cat "$B/soak.log"; exit 1
fi
timeout -k 5 300 $WRAP "$B/fuzz/model_diff" --first "${SOAK_FIRST_SEED:-100000}" --seeds 20 || exit 1
echo "soak: share_stress (20,000 values, exactly once and in order) and 20 model sequences passed"
