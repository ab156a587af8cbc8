#!/bin/sh
# SPDX-License-Identifier: MIT
# /init of the test guest (busybox). Loads sigfd.ko, runs /t/<suite>/<test>
# one by one with SIGFD_BACKEND=kernel, then the extra commands, unloads the
# module and powers off. Every line the host judges starts with GUEST-.
export PATH=/bin:/x HOME=/ TMPDIR=/tmp
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mkdir -p /dev/shm && mount -t tmpfs shm /dev/shm
. /config

echo # SeaBIOS leaves its last line unterminated
echo "GUEST-BEGIN $(uname -r) cpus=$(grep -c ^processor /proc/cpuinfo)"
if ! insmod /sigfd.ko || [ ! -c /dev/sigfd ]; then
	echo "GUEST-INSMOD-FAIL"
	dmesg | tail -n 20
	poweroff -f
fi

centis() { read -r up _ </proc/uptime; echo "${up%.*}${up#*.}"; }

# Kill whatever a test left behind, so that no stray process holds a
# descriptor into the next test or the final rmmod. Builtins only: no fork
# of ours may be caught in the sweep.
sweep() {
	for p in /proc/[0-9]*; do
		pid=${p#/proc/}
		[ "$pid" = 1 ] || [ "$pid" = 2 ] && continue
		read -r line <"$p/stat" 2>/dev/null || continue
		set -- $line
		[ "$4" = 2 ] && continue # a kernel thread
		kill -9 "$pid" 2>/dev/null
	done
}

selected() {
	[ -z "$ONLY" ] && return 0
	for pat in $ONLY; do
		case $1 in $pat) return 0 ;; esac
	done
	return 1
}

names=
for t in /t/*/*; do
	[ -x "$t" ] || continue
	name=${t#/t/}
	selected "$name" && names="$names $name"
done
echo "GUEST-EXPECT:$names"

for name in $names; do
	t0=$(centis)
	# Under TCG a fork costs ten times more: the stress test forks 200 times.
	if SIGFD_STRESS_FORKS=200 SIGFD_BACKEND=kernel timeout "$TEST_TIMEOUT" "/t/$name" >/tmp/out 2>&1; then
		verdict=PASS
	else
		rc=$?
		verdict="FAIL exit=$rc"
		[ $rc = 143 ] && verdict="FAIL timed-out-after-${TEST_TIMEOUT}s"
	fi
	t1=$(centis)
	sweep
	el=$((t1 - t0))
	echo "GUEST-RESULT: $name $verdict $((el / 100)).$((el / 10 % 10))s"
	case $verdict in FAIL*) tail -n 30 /tmp/out | sed 's/^/GUEST-OUT: /' ;; esac
done

n=0
IFS=';'
for cmd in $EXTRA_RUN; do
	unset IFS
	set -- $cmd
	[ $# -gt 0 ] || continue
	n=$((n + 1))
	echo "GUEST-EXPECT: extra-$n"
	echo "GUEST-EXTRA: extra-$n: $*"
	t0=$(centis)
	if timeout "$EXTRA_TIMEOUT" "$@" >/tmp/out 2>&1; then verdict=PASS; else verdict="FAIL exit=$?"; fi
	t1=$(centis)
	sweep
	sed 's/^/GUEST-EXTRA-OUT: /' /tmp/out
	el=$((t1 - t0))
	echo "GUEST-RESULT: extra-$n $verdict $((el / 100)).$((el / 10 % 10))s"
	IFS=';'
done
unset IFS

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
dmesg | grep -E 'BUG:|WARNING:|Oops|general protection|Call Trace|corruption|refcount_t|UBSAN|KASAN|blocked for more than|rcu_.*stall' |
	grep -v 'loading out-of-tree module taints kernel' |
	grep -v 'module verification failed' | sed 's/^/GUEST-DMESG: /'
echo "GUEST-END"
poweroff -f
