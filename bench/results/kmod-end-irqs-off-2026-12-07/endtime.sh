#!/bin/sh
# SPDX-License-Identifier: MIT
# In the module guest (README.md): each case three times, then the
# module's "sigfd-time" lines and the three longest flush_sigqueue() calls
# the function_graph tracer saw, the kernel's own flush of a dead process's
# queues (under write_lock_irq(&tasklist_lock)).
grep 'pending signals' /proc/self/limits
T=/sys/kernel/tracing
mount -t tracefs nodev $T
echo flush_sigqueue >$T/set_ftrace_filter
echo function_graph >$T/current_tracer
for a in "0 0" "1 0" "1024 0" "0 10000" "1 10000" "1024 10000" "0 60000" "1 60000" "1024 60000"; do
	echo >$T/trace
	# shellcheck disable=SC2086 # two words on purpose
	for _ in 1 2 3; do /x/endtime $a; done
	echo "case $a:"
	dmesg -c | grep sigfd-time
	grep flush_sigqueue $T/trace | sed 's/.*[^0-9.]\([0-9.]*\) us .*/\1/' | sort -n | tail -3 | tr '\n' ' '
	echo "us: the longest flush_sigqueue()s"
done
