#!/bin/sh
# SPDX-License-Identifier: MIT
# make fuzz-model: model_diff's sequences FIRST..FIRST+COUNT-1 in JOBS
# shards side by side. A sequence waits on the forwarding thread more than
# it computes (alone it keeps 54% of a core busy): on 2 cores 100
# sequences took 17.5 s in one process and 8.2 s in four.
#   sh fuzz/model_shards.sh PROGRAM FIRST COUNT JOBS
set -u
prog=$1 first=$2 count=$3 jobs=$4
[ "$jobs" -ge 1 ] && [ "$count" -ge 1 ] || { echo "model_shards: bad JOBS or COUNT" >&2; exit 2; }
[ "$jobs" -le "$count" ] || jobs=$count
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
each=$((count / jobs)) extra=$((count % jobs)) at=$first pids=
for k in $(seq 1 "$jobs"); do
	n=$each
	[ "$k" -le "$extra" ] && n=$((n + 1))
	"$prog" --first "$at" --seeds "$n" --ops 150 >"$dir/$k" 2>&1 &
	pids="$pids $!"
	at=$((at + n))
done
status=0 k=0
for pid in $pids; do
	k=$((k + 1))
	wait "$pid" || status=1
	cat "$dir/$k"
done
[ "$status" -eq 0 ] && echo "model_shards: $count sequences from $first in $jobs shards, no difference"
exit $status
