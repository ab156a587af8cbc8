#!/bin/sh
# SPDX-License-Identifier: MIT
# The share-mode soak driver (fuzz/soak.c), a short run: rounds of a
# creator whose threads move signals between share fds, open and close
# others and fork, senders queueing numbered values, multithreaded readers,
# and the creator's exit(), SIGKILL or exec. Fails on a value lost or
# duplicated, out of order, data after end of file, or an fd, thread or
# child left. The seed is 1 unless SIGFD_SOAK_SEED says otherwise; a
# failure prints the command that replays its round. make soak MINUTES=N
# runs it longer, with a new seed each time.
# Under valgrind: fewer values and seconds, as every process of a round is
# under it.
# time-limit: 120
set -eu
seed="--seed ${SIGFD_SOAK_SEED:-1}"
if [ -n "${WRAP:-}" ]; then
	exec $WRAP "$BUILD/fuzz/soak" --seconds 4 --values 300 --timeout 60 $seed
fi
exec "$BUILD/fuzz/soak" --seconds 6 $seed
