#!/bin/sh
# SPDX-License-Identifier: MIT
# Outside suites: tests written by others, run against the library. Their
# signalfd() calls go to sigfd() through tests/tiers/outside/signalfd_shim.so
# (LD_PRELOAD), in local mode and in share mode:
#   test-event, test-udev-event  systemd's sd-event and udev spawn tests, from
#                                Debian's systemd-tests (apt-get download into
#                                build/outside, extracted, never installed)
#   stress-ng-sigfd              stress-ng --sigfd 2 --verify: children flood
#                                their parent with sigqueue(), it reads a
#                                signalfd and checks each signal number
# A run passes when it exits 0, the shim logged a call that succeeded (so the
# program really went through sigfd) and, for stress-ng, bogo ops > 0.
# tests/known-differences lists the runs a backend cannot pass (local mode:
# backend "local"; share mode: "thread", the host's), with what their
# failure looks like: XFAIL when it fails so, XPASS when it passes, FAIL
# when it fails any other way. SKIPPED (77) when
# something is missing; what could run still runs and a failure still fails.
# time-limit: 240
set -u
B=${BUILD:?BUILD must name the build directory}
here=$(cd "$(dirname "$0")" && pwd)
shim=$(cd "$B" && pwd)/tests/tiers/outside/signalfd_shim.so
known=$here/../known-differences
# shellcheck disable=SC1091 # tests/known.inc
. "$here/../known.inc"
limit=${OUTSIDE_TIMEOUT:-30}

[ -f "$shim" ] || { echo "the shim was not built: $shim"; exit 1; }
# valgrind would judge systemd's and stress-ng's code, not ours; the shim
# and the library are the plain build's, which runs this tier.
if [ -n "${WRAP:-}" ]; then
	echo "SKIPPED: outside suites under valgrind (they run the plain build's shim; valgrind would judge the outside programs)"
	exit 77
fi
# A sanitized shim needs its runtime in the program, and the outside
# programs are not built with it.
if nm -D --undefined-only "$shim" | grep -qE '__(asan|tsan|ubsan|msan|lsan)_'; then
	echo "SKIPPED: outside suites in a sanitized build (the shim needs the sanitizer's runtime, which the outside programs do not load)"
	exit 77
fi
# The outside programs are glibc programs: a shim of another C library
# (CC=musl-gcc) cannot be loaded into them.
if ! readelf -d "$shim" | grep -q 'Shared library: \[libc\.so\.6\]'; then
	echo "SKIPPED: outside suites (the shim is not linked to glibc's libc.so.6, which the outside programs use)"
	exit 77
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 missing=

# The systemd test binaries and their library, fetched once for every build
# variant: under a lock, since variants may run their suites at once, and
# moved into place only when complete.
cache=${SIGFD_OUTSIDE_DIR:-$(dirname "$B")/outside}
sysroot=$cache/systemd
fetch_systemd() {
	mkdir -p "$cache" || return 1
	(
		flock -w 300 9 || exit 1
		[ -f "$sysroot/.complete" ] && exit 0
		rm -rf "$sysroot" "$cache/fetch"
		mkdir -p "$cache/fetch/root" || exit 1
		# One apt-get call: the two packages at one version.
		(cd "$cache/fetch" && apt-get download systemd-tests libsystemd-shared) >"$cache/fetch/apt.log" 2>&1 ||
			exit 1
		for deb in "$cache"/fetch/*.deb; do
			dpkg-deb -x "$deb" "$cache/fetch/root" || exit 1
		done
		dpkg-deb -f "$cache"/fetch/systemd-tests_*.deb Version >"$cache/fetch/root/.complete" || exit 1
		mv "$cache/fetch/root" "$sysroot" && rm -rf "$cache/fetch"
	) 9>"$cache/lock"
}

# run NAME MODE COMMAND...: one outside program through the shim. Sets why
# to the reason it failed, or empty; the caller may add checks of its own
# on $out before calling verdict.
run() {
	name=$1 mode=$2
	shift 2
	out=$tmp/$name.$mode.out log=$tmp/$name.$mode.log
	start=$(date +%s)
	timeout -k 5 "$limit" env SIGFD_SHIM_MODE="$mode" SIGFD_SHIM_LOG="$log" \
		LD_PRELOAD="$shim" TMPDIR="$tmp" "$@" >"$out" 2>&1 </dev/null
	rc=$?
	secs=$(($(date +%s) - start))
	calls=0
	[ -f "$log" ] && calls=$(grep -c ' ret=[0-9]' "$log")
	why=
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		why="timed out after ${limit}s"
	elif [ "$rc" -ne 0 ]; then
		why="exit $rc"
	elif [ "$calls" -eq 0 ]; then
		why="the shim saw no successful signalfd() call: the program did not go through sigfd"
	fi
}

# verdict: PASS, XFAIL, XPASS or FAIL for the run just made.
verdict() {
	r="${name}[$mode]"
	backend=local
	[ "$mode" = share ] && backend=thread
	{ cat "$out"; echo "exit=$rc"; } >"$out.facts"
	if known_listed "$known" $backend "$r"; then
		if [ -z "$why" ]; then
			echo "XPASS $r (listed in tests/known-differences; ${secs}s, $calls calls)"
			return
		fi
		reason=$(known_reason "$known" $backend "$r" "$out.facts")
		if [ -n "$reason" ]; then
			echo "XFAIL $r ($why): $reason"
			return
		fi
		why="$why, not as tests/known-differences describes"
	fi
	if [ -z "$why" ]; then
		echo "PASS $r (${secs}s, $calls signalfd calls through sigfd)"
		return
	fi
	fail=1
	echo "FAIL $r: $why"
	tail -n 20 "$out" | cut -c1-200 | sed "s/^/    /"
	[ -f "$log" ] && sed 's/^/    shim: /' "$log" | tail -n 5
}

# systemd: the tests of the package that call signalfd() (found by running
# each under the shim) and need no root-only service, D-Bus or network.
if command -v apt-get >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1 && fetch_systemd; then
	echo "systemd-tests $(cat "$sysroot/.complete") from $sysroot"
	libdir=$sysroot/usr/lib/x86_64-linux-gnu/systemd
	for t in test-event test-udev-event; do
		for mode in local share; do
			run "$t" "$mode" env LD_LIBRARY_PATH="$libdir" "$sysroot/usr/lib/systemd/tests/$t"
			verdict
		done
	done
else
	missing="$missing systemd-tests (apt-get download failed: see $cache/fetch/apt.log)"
fi

if command -v stress-ng >/dev/null 2>&1; then
	for mode in local share; do
		run stress-ng-sigfd "$mode" stress-ng --sigfd 2 --verify -t 5 --metrics-brief --temp-path "$tmp"
		# The metrics line: "stress-ng: metrc: [PID] sigfd OPS ...".
		ops=$(awk '$2 == "metrc:" && $4 == "sigfd" { print $5 }' "$out")
		if [ -z "$why" ] && ! [ "${ops:-0}" -gt 0 ] 2>/dev/null; then
			why="no bogo ops reported (${ops:-no metrics line})"
		fi
		verdict
		[ -n "$ops" ] && echo "    stress-ng $mode: $ops bogo ops"
	done
else
	missing="$missing stress-ng"
fi

[ "$fail" -eq 0 ] || exit 1
if [ -n "$missing" ]; then
	echo "SKIPPED: outside suites, in part (missing:$missing)"
	exit 77
fi
exit 0
