# SPDX-License-Identifier: MIT
# What the /init of both QEMU guests (kmod/guest-init.sh, kernel/guest/init.sh)
# does the same way, copied into the guest as /common.sh. Every line the
# host judges (kernel/guest/lib.sh, guest_judge) starts with GUEST-.

guest_setup() {
	export PATH=/bin:/x HOME=/ TMPDIR=/tmp
	mount -t proc proc /proc
	mount -t sysfs sys /sys
	mount -t devtmpfs dev /dev
	mkdir -p /dev/shm && mount -t tmpfs shm /dev/shm
	. /config
	echo # SeaBIOS leaves its last line unterminated
	read -r up _ </proc/uptime
	echo "GUEST-BEGIN $(uname -r) cpus=$(grep -c ^processor /proc/cpuinfo) init-at=${up}s"
	kmsg_new | sed 's/^/GUEST-DMESG: [boot] /'
}

# What the kernel said since the last look (kept in /tmp/kmsg, the new part
# in /tmp/kmsg.new): the lines that fail a run (an out-of-tree module's
# taint notice does not), so that each is put down to the test that made it.
kmsg_new() {
	dmesg -c >/tmp/kmsg.new
	cat /tmp/kmsg.new >>/tmp/kmsg
	grep -E 'BUG:|WARNING:|Oops|general protection|Call Trace|corruption|refcount_t|UBSAN|KASAN|ODEBUG|blocked for more than|rcu_.*stall|possible recursive locking|circular locking|inconsistent lock' /tmp/kmsg.new |
		grep -v -e 'loading out-of-tree module taints kernel' -e 'module verification failed'
}

centis() { read -r up _ </proc/uptime; echo "${up%.*}${up#*.}"; }

# Kill whatever a test left behind, so that no stray process holds a
# descriptor into the next test (or the module at rmmod). Builtins only: no
# fork of ours may be caught in the sweep.
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

# Is test NAME (SUITE/TEST) among the ONLY patterns? Not expanded as file
# names: /init runs in /, where 's*' is sbin, sigfd.ko and sys.
selected() {
	[ -z "$ONLY" ] && return 0
	set -f
	for pat in $ONLY; do
		case $1 in $pat) set +f; return 0 ;; esac
	done
	set +f
	return 1
}

# guest_tests BACKEND: every /t/SUITE/TEST with SIGFD_BACKEND=BACKEND, one by
# one under TEST_TIMEOUT; a kselftest (suite selftest) passes only with every
# test passed and none skipped.
guest_tests() {
	names=
	for t in /t/*/*; do
		[ -x "$t" ] || continue
		name=${t#/t/}
		selected "$name" && names="$names $name"
	done
	echo "GUEST-EXPECT:$names"
	for name in $names; do
		t0=$(centis)
		# Under TCG a fork costs ten times more: the stress test forks 200
		# times. A debug kernel floods with fewer (FLOOD_COUNT: guest_config).
		if SIGFD_STRESS_FORKS=200 SIGFD_FLOOD_COUNT=$FLOOD_COUNT SIGFD_BACKEND=$1 \
			timeout "$TEST_TIMEOUT" "/t/$name" >/tmp/out 2>&1; then
			verdict=PASS
		else
			rc=$?
			verdict="FAIL exit=$rc"
			[ $rc = 143 ] && verdict="FAIL timed-out-after-${TEST_TIMEOUT}s"
		fi
		case $name in selftest/*)
			if [ "$verdict" = PASS ] && ! grep -q '^# Totals: pass:[1-9][0-9]* fail:0 xfail:0 xpass:0 skip:0 error:0' /tmp/out; then
				verdict="FAIL totals"
			fi
			grep '^# Totals' /tmp/out | sed 's/^/GUEST-SELFTEST: /' ;;
		esac
		t1=$(centis)
		sweep
		# A kernel report during the test (or the sweep after it) fails it.
		bad=$(kmsg_new)
		if [ -n "$bad" ]; then
			case $verdict in PASS) verdict="FAIL kernel-report" ;; *) verdict="$verdict+kernel-report" ;; esac
		fi
		el=$((t1 - t0))
		echo "GUEST-RESULT: $name $verdict $((el / 100)).$((el / 10 % 10))s"
		if [ -n "$bad" ]; then
			echo "$bad" | sed "s|^|GUEST-DMESG: [$name] |"
			head -n 80 /tmp/kmsg.new | sed 's/^/GUEST-OUT: | /'
		fi
		# The model suite's tallies (sequences run, values sent and lost),
		# the stress suite's rounds, the m2 suite's lost wake-ups.
		case $name$verdict in
		model/*PASS) tail -n 2 /tmp/out | sed 's/^/GUEST-INFO: /' ;;
		stress/*PASS | m2/*PASS) tail -n 1 /tmp/out | sed 's/^/GUEST-INFO: /' ;;
		esac
		case $verdict in FAIL*)
			case $name in
			selftest/*) grep -B 8 '^not ok' /tmp/out ;;
			*) tail -n 40 /tmp/out ;;
			esac | sed 's/^/GUEST-OUT: /' ;;
		esac
	done
}

# The commands of EXTRA_RUN (';' between them), their output shown whole.
guest_extra_run() {
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
}

# What the kernel said since the last test, then the end.
guest_end() {
	kmsg_new | sed 's/^/GUEST-DMESG: [end] /'
	echo "GUEST-END"
	poweroff -f
}
