#!/bin/sh
# SPDX-License-Identifier: MIT
# /init of the module's guest (busybox). Loads sigfd.ko, runs /t/<suite>/<test>
# one by one with SIGFD_BACKEND=kernel, then the extra commands, unloads the
# module and powers off.
. /common.sh
guest_setup
if ! insmod /sigfd.ko || [ ! -c /dev/sigfd ]; then
	echo "GUEST-INSMOD-FAIL"
	dmesg | tail -n 20 | sed 's/^/    /'
	poweroff -f
fi
guest_tests kernel
guest_extra_run
# Exiting processes drop their descriptors asynchronously: give rmmod a moment.
for try in 1 2 3 4 5; do
	rmmod sigfd 2>/tmp/rmmod && break
	sleep 1
done
if grep -q '^sigfd ' /proc/modules; then
	echo "GUEST-RMMOD: failed: $(cat /tmp/rmmod)"
else
	echo "GUEST-RMMOD: ok"
fi
guest_end
