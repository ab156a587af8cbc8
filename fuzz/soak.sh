#!/bin/sh
# SPDX-License-Identifier: MIT
# make soak MINUTES=N: tests/share_stress in a loop for N minutes (its
# reader checks that each of 20,000 queued values arrives exactly once and
# in order while threads churn share fds and a thread forks; it fails on a
# lost, duplicated or reordered value, a leaked fd or a forwarding thread
# left), alternating with model_diff sequences. Prints the tally.
set -u
B=${BUILD:?}
minutes=${MINUTES:-1}
forks=${SIGFD_STRESS_FORKS:-500}
end=$(($(date +%s) + minutes * 60))
rounds=0 sent=0 seqs=0 seed=${SOAK_FIRST_SEED:-100000}
while [ "$(date +%s)" -lt "$end" ]; do
	if ! SIGFD_STRESS_FORKS=$forks timeout -k 5 300 $WRAP "$B/tests/share_stress" >"$B/soak.log" 2>&1; then
		echo "soak: share_stress failed in round $((rounds + 1)):"; cat "$B/soak.log"
		echo "soak: $sent sent and received before the failure"; exit 1
	fi
	rounds=$((rounds + 1)) sent=$((sent + 20000))
	if ! timeout -k 5 300 $WRAP "$B/fuzz/model_diff" --first "$seed" --seeds 20 >"$B/soak.log" 2>&1; then
		cat "$B/soak.log"; exit 1
	fi
	seed=$((seed + 20)) seqs=$((seqs + 20))
done
printf 'soak: %d minutes, %d stress rounds (%d forks each): %d values sent, %d received, 0 lost, 0 duplicated, 0 reordered; fds left 0, forwarding threads left 0 (checked by each round); %d model sequences (seeds %s..%d), no difference\n' \
	"$minutes" "$rounds" "$forks" "$sent" "$sent" "$seqs" "${SOAK_FIRST_SEED:-100000}" "$((seed - 1))"
