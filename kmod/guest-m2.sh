#!/bin/sh
# SPDX-License-Identifier: MIT
# Suite "m2" of the module's guest (built by kmod/guest-run.sh): issue 16's
# M-2 with its window widened, a test build of sigfd.ko swapped in.
#   guest-m2.sh MODULE EXPECT SECONDS
# loads MODULE instead of /sigfd.ko, runs kmod/reader_wakeup_race for
# SECONDS against it, and loads /sigfd.ko again. EXPECT none: the run must
# pass (no wake-up lost); EXPECT loss: it must fail by losing wake-ups, the
# proof that the widened window is open.
ko=$1 expect=$2 seconds=$3

# Descriptors of the last test may still be on their way out.
swap() {
	for _ in 1 2 3 4 5; do
		rmmod sigfd 2>/tmp/m2.rmmod && break
		sleep 1
	done
	if ! insmod "$1" || [ ! -c /dev/sigfd ]; then
		echo "m2: cannot load $1 in place of sigfd: $(cat /tmp/m2.rmmod)"
		grep '^sigfd ' /proc/modules
		exit 1
	fi
}

swap "$ko"
/t/kmod/reader_wakeup_race "$seconds" >/tmp/m2.out 2>&1
rc=$?
echo "m2: $ko, expected $expect, reader_wakeup_race exit $rc:"
cat /tmp/m2.out
lost=$(sed -n 's/.* \([0-9][0-9]*\) lost wake-ups .*/\1/p' /tmp/m2.out)
case $expect in
none) verdict=$rc ;;
loss) [ "$rc" != 0 ] && [ "${lost:-0}" -gt 0 ]; verdict=$? ;;
esac
swap /sigfd.ko
# The summary line last: the guest shows it for a pass.
grep 'lost wake-ups' /tmp/m2.out
exit "$verdict"
