#!/bin/sh
# SPDX-License-Identifier: MIT
# The kernel-module tier: build sigfd.ko against Debian's cloud kernel headers,
# build the test programs statically, pack them with busybox into an
# initramfs, boot Debian's own cloud kernel under QEMU (TCG: KVM is unusable
# on these hosts), load the module, run every test, unload it, power off.
# The host judges by the guest's result lines: a failed or missing result, a
# kernel warning, oops or panic, a failed rmmod or a timeout fails the run.
#
#   sh kmod/guest-run.sh            build, boot, run, report
#   sh kmod/guest-run.sh --build    build the module only (make kmod)
#   sh kmod/guest-run.sh --missing  print the missing packages, exit 1 if any
#   sh kmod/guest-run.sh --list     print the guest programs built from sources
#                                   ("SUITE/NAME SOURCE"), build nothing
#
# Guest programs: kmod/tests/*.c (suite "kmod"), the programs of the tests/
# folders of tier kmod in tests/folders (suite FOLDER: tests/share/), in suite "m2" kmod/tests/reader_wakeup_race on test builds of the
# module (build_m2_suite), in suite "end" kmod/tests/unload_after_end on
# another (build_end_suite) and, in suite "model", fuzz/model_diff (share mode
# checked against the kernel backends' model) and fuzz/soak, each one self-contained and
# linked with libsigfd, run with SIGFD_BACKEND=kernel. Tests listed for
# backend "module" in tests/known-differences count as XFAIL, not as
# failures. Environment:
#   KVER=6.1.0-57-cloud-amd64   kernel ABI (default: what linux-image-cloud-amd64 depends on)
#   KMOD_KERNEL=backports       the newest cloud kernel of bookworm-backports instead, for
#                               porting (6.12 today, which the module refuses at build time:
#                               see kmod/sigfd.c); its image and headers are fetched into
#                               KMOD_BUILD through a private apt list, nothing is installed.
#                               Note: 6.12.95 under this QEMU's TCG crashed on its own here
#                               (once in PCI probing at boot, before any module was loaded)
#   KMOD_KERNEL=rt              Debian's 6.1 PREEMPT_RT kernel (linux-image-rt-amd64), where
#                               the siglock does not disable preemption (make kmod-rt-check);
#                               image and headers fetched into KMOD_BUILD as for backports
#   KMOD_KERNEL=debug           Debian's linux-source-6.1 built here as a debug kernel (KASAN,
#                               lockdep, debug objects: kernel/config.debug and config.module),
#                               kept with its build tree in the kernel cache outside the work
#                               tree (kernel/run.sh --build: SIGFD_KERNEL_CACHE, by default
#                               /var/cache/sigfd-kernels/6.1-debug/) and the module built
#                               against that tree; 1 GiB, kasan_multi_shot, and suite "stress"
#                               (make kdebug-check)
#   KMOD_STRESS_SECONDS=0       suite "stress": each kernel/stress/ program this long (25 with
#                               KMOD_KERNEL=debug)
#   KMOD_ONLY='share/* kmod/flood'  run only the tests matching these patterns
#   KMOD_EXTRA='prog ...'       more static programs (or scripts) copied to /x in the guest
#   KMOD_EXTRA_RUN='cmd; cmd'   commands run in the guest after the tests (default: each
#                               KMOD_EXTRA program without arguments); their output is shown
#   KMOD_MODEL_SEEDS=500        model/model_diff: sequences (seeds 1..N, about 30 a second;
#                               it stops early at half of KMOD_TEST_TIMEOUT, 60 s for
#                               the debug kernel, and says how many)
#   KMOD_SOAK_SECONDS=10        model/soak: seconds of rounds (seed 1)
#   KMOD_M2_SECONDS=3           suite "m2" (issue 16's M-2 on test builds of the module:
#                               make kmod-m2-check): seconds of each kmod/reader_wakeup_race
#   KMOD_M2_VARIANTS='widened widened_fix_reverted'  its builds (fix_reverted: the code
#                               before the fix unwidened, which loses a few per million
#                               reads: too few to check in a few seconds)
#   KMOD_SMP=2 KMOD_MEM=512     guest CPUs and MiB (1024 for the debug kernel)
#   KMOD_TIMEOUT=300            whole guest run, seconds; KMOD_TEST_TIMEOUT=60 per test
#                               (2400 and 300 for the debug kernel)
#   KMOD_NO_INSTALL=1           never apt-get, even as root
#   KMOD_BUILD=build/kmod       where everything built goes (build/kmod-KMOD_KERNEL with
#                               KMOD_KERNEL set)
set -eu
cd "$(dirname "$0")/.."
top=$PWD
case ${KMOD_KERNEL:-} in
backports | debug | rt) out=${KMOD_BUILD:-build/kmod-$KMOD_KERNEL} ;;
'') out=${KMOD_BUILD:-build/kmod} ;;
*) echo "kmod: KMOD_KERNEL: 'backports', 'rt' or 'debug'" >&2; exit 2 ;;
esac
# Debian's image flavour: the package linux-image-$FLAVOUR-amd64.
flavour=cloud
[ "${KMOD_KERNEL:-}" = rt ] && flavour=rt
# A debug kernel runs slower, needs room for KASAN's shadow, and must go on
# past a first report so that the whole dmesg is judged.
if [ "${KMOD_KERNEL:-}" = debug ]; then
	GUEST_MEM=${KMOD_MEM:-1024} GUEST_TIMEOUT=${KMOD_TIMEOUT:-2400} TEST_TIMEOUT=${KMOD_TEST_TIMEOUT:-300}
	STRESS_SECONDS=${KMOD_STRESS_SECONDS:-25} BOOT_ARGS=kasan_multi_shot MODEL_SECONDS=60
	export GUEST_FLOOD_COUNT=${GUEST_FLOOD_COUNT:-10000}
else
	GUEST_MEM=${KMOD_MEM:-512} GUEST_TIMEOUT=${KMOD_TIMEOUT:-300} TEST_TIMEOUT=${KMOD_TEST_TIMEOUT:-60}
	STRESS_SECONDS=${KMOD_STRESS_SECONDS:-0} BOOT_ARGS='' MODEL_SECONDS=$((TEST_TIMEOUT / 2))
fi
case $out in /*) ;; *) out=$top/$out ;; esac
mode=${1:-run}

# Also to make check's output as it happens (tests/run-all's progress
# descriptor: "# progress: shown" in tests/tiers/kmod_guest.sh).
note() {
	printf 'kmod: %s\n' "$*" >&2
	[ -z "${SIGFD_PROGRESS_FD:-}" ] || printf '  kmod: %s\n' "$*" >&"$SIGFD_PROGRESS_FD"
}
die() { note "$*"; exit 1; }

# bookworm-backports through apt state of our own, so the host's sources and
# package lists stay as they are.
APT_OPTS=
backports_apt() {
	a=$out/apt
	mkdir -p "$a/lists/partial" "$a/cache/archives/partial"
	echo "deb http://deb.debian.org/debian bookworm-backports main" >"$a/sources.list"
	APT_OPTS="-o Dir::Etc::sourcelist=$a/sources.list -o Dir::Etc::sourceparts=- -o Dir::State::Lists=$a/lists -o Dir::Cache=$a/cache"
	ls "$a/lists" | grep -q Packages ||
		apt-get $APT_OPTS update -qq 2>&1 | grep -v -e '_apt' -e 'sandbox' >&2 || true
}

# The ABI changes with every Debian kernel update and old ones leave the
# mirror: ask apt each time.
resolve_kver() {
	[ -n "${KVER:-}" ] && return 0
	# Named by the tree once it is built (headers).
	[ "${KMOD_KERNEL:-}" = debug ] && { KVER=6.1-debug; return 0; }
	[ "${KMOD_KERNEL:-}" = backports ] && backports_apt
	# shellcheck disable=SC2086 # APT_OPTS is a list of options
	KVER=$(apt-cache $APT_OPTS depends "linux-image-$flavour-amd64" 2>/dev/null |
		sed -n "s/^ *Depends: linux-image-\([0-9].*-$flavour-amd64\)\$/\1/p" | head -n 1)
	if [ -z "$KVER" ] && [ -z "${KMOD_KERNEL:-}" ]; then # no apt lists: fall back on installed headers
		KVER=$(ls -d /usr/src/linux-headers-*-cloud-amd64 2>/dev/null |
			sed 's|.*/linux-headers-||' | sort -V | tail -n 1)
	fi
	[ -n "$KVER" ]
}

# Where the kernel's build tree is: installed headers, or for backports and
# rt the three header packages unpacked under KMOD_BUILD, their top Makefile
# pointed at the unpacked common tree.
KSRC=
headers() {
	if [ "${KMOD_KERNEL:-}" = debug ]; then
		debug_kernel=$(KPATCH_KERNEL=6.1 KPATCH_FLAVOUR=debug KPATCH_NO_INSTALL=1 sh kernel/run.sh --build) ||
			die "cannot build the debug kernel"
		# The cache entry's key lock, shared for this whole run: no other
		# run's eviction removes the tree and bzImage while they are in use.
		exec 8>>"$debug_kernel.lock"
		flock -s 8
		[ -s "$debug_kernel/bzImage" ] || die "the debug kernel's cache entry $debug_kernel is gone"
		KSRC=$(cat "$debug_kernel/tree")/obj
		KVER=$(cat "$KSRC/include/config/kernel.release")
		return 0
	fi
	if [ -z "${KMOD_KERNEL:-}" ]; then
		KSRC=/usr/src/linux-headers-$KVER
		return 0
	fi
	root=$out/kernel/headers-$KVER
	KSRC=$root/usr/src/linux-headers-$KVER
	[ -f "$KSRC/Makefile" ] && return 0
	tmp=$(mktemp -d)
	# With the two it depends on: the common tree and the kbuild tools.
	# shellcheck disable=SC2046,SC2086
	(cd "$tmp" && apt-get $APT_OPTS download "linux-headers-$KVER" $(apt-cache $APT_OPTS depends \
		"linux-headers-$KVER" | sed -n 's/^ *Depends: \(linux-\(headers\|kbuild\)-[^ ]*\).*/\1/p') \
		2>&1) | grep -v -e '_apt' -e 'sandbox' >&2 || true
	[ "$(ls "$tmp"/*.deb 2>/dev/null | wc -l)" = 3 ] ||
		{ rm -rf "$tmp"; die "cannot download the headers of $KVER"; }
	mkdir -p "$root"
	for deb in "$tmp"/*.deb; do dpkg-deb -x "$deb" "$root"; done
	rm -rf "$tmp"
	sed -i "s|/usr/src/|$root/usr/src/|" "$KSRC/Makefile"
}

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }

# Packages this tier needs that are not installed, one line.
missing_packages() {
	m=
	command -v qemu-system-x86_64 >/dev/null 2>&1 || m="$m qemu-system-x86"
	installed busybox-static || m="$m busybox-static"
	command -v cpio >/dev/null 2>&1 || m="$m cpio"
	command -v gzip >/dev/null 2>&1 || m="$m gzip"
	command -v gcc >/dev/null 2>&1 || m="$m gcc"
	[ -f /usr/lib/x86_64-linux-gnu/libc.a ] || m="$m libc6-dev"
	if [ "${KMOD_KERNEL:-}" = debug ]; then
		m="$m $(KPATCH_KERNEL=6.1 sh kernel/run.sh --missing)"
	elif [ -n "${KMOD_KERNEL:-}" ]; then
		: # backports, rt: fetched, never installed
	elif [ -n "${KVER:-}" ]; then
		[ -f "/usr/src/linux-headers-$KVER/Makefile" ] || m="$m linux-headers-$KVER"
	else
		m="$m linux-headers-<abi>-cloud-amd64"
	fi
	# Once each (the debug kernel's list repeats some).
	echo "$m" | tr ' ' '\n' | awk 'NF && !seen[$0]++' | tr '\n' ' ' | sed 's/ $//'
}

ensure_packages() {
	resolve_kver || true
	m=$(missing_packages)
	[ -z "$m" ] && return 0
	if [ "$(id -u)" = 0 ] && [ -z "${KMOD_NO_INSTALL:-}" ]; then
		note "installing: $m"
		apt-get update -qq >&2
		KVER=; resolve_kver || die "cannot resolve the cloud kernel ABI"
		m=$(missing_packages)
		# shellcheck disable=SC2086
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $m >&2 ||
			die "apt-get install failed: $m"
		m=$(missing_packages)
	fi
	[ -z "$m" ] || die "missing packages: $m"
}

# kbuild DIR LOG: the module in DIR (a Kbuild and its sources) built, with
# no warning, into DIR/sigfd.ko.
kbuild() {
	# The kernel's own build, with the kernel's compiler: nothing from an
	# outer make (say CC=clang for the library) may leak into it.
	# BTF for the module needs pahole (dwarves); the module works without.
	btf=
	command -v pahole >/dev/null 2>&1 || btf=CONFIG_DEBUG_INFO_BTF_MODULES=
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u CC -u CFLAGS \
		make -C "$KSRC" M="$1" $btf modules >"$2" 2>&1 ||
		{ cat "$2" >&2; die "module build failed ($2)"; }
	if grep -E 'warning:|error:' "$2" >&2; then
		die "module build has warnings ($2)"
	fi
}

build_module() {
	kbuild "$top/kmod" "$out/module.log"
	cp "$top/kmod/sigfd.ko" "$out/sigfd.ko"
}

# A test build of the module: its sources in $out/NAME/ (anew), with the
# compiler flags FLAGS; the caller may edit them before test_build_make
# builds them into the guest's /NAME.ko.
#   test_build_sources NAME FLAGS
test_build_sources() {
	rm -rf "${out:?}/$1"
	mkdir -p "$out/$1"
	cp kmod/Kbuild kmod/sigfd.c kmod/sigfd_uapi.h "$out/$1/"
	[ -z "$2" ] || echo "ccflags-y := $2" >>"$out/$1/Kbuild"
}

test_build_make() {
	kbuild "$out/$1" "$out/$1/module.log"
	cp "$out/$1/sigfd.ko" "$out/root/$1.ko"
}

# Suite "m2": issue 16's M-2, a foreign read's dequeue_signal() clearing the
# reader's TIF_SIGPENDING under the creator's siglock, on test builds of
# sigfd.c (kmod/guest-m2.sh runs kmod/tests/reader_wakeup_race on each),
# each built in a directory of its own. "widened": SIGFD_TEST_WIDEN_M2 holds
# the window open (see sigfd.c); it must lose no wake-up. "fix_reverted":
# the fix-up under the reader's own siglock back at its old condition (only
# after a read took a signal); it must lose some. Both by default, so that
# the suite shows the widened window open, else "widened" proves nothing;
# "fix_reverted" alone is the code before the fix as the guest runs it.
M2_WIDEN_US=1000 M2_SECONDS=${KMOD_M2_SECONDS:-3}
build_m2_suite() {
	for variant in ${KMOD_M2_VARIANTS:-widened widened_fix_reverted}; do
		case $variant in widened | widened_fix_reverted | fix_reverted) ;;
		*) die "KMOD_M2_VARIANTS: widened, widened_fix_reverted or fix_reverted, not $variant" ;;
		esac
		mkdir -p "$out/root/t/m2"
		flags=
		case $variant in widened*) flags=-DSIGFD_TEST_WIDEN_M2=$M2_WIDEN_US ;; esac
		test_build_sources "m2-$variant" "$flags"
		expect=none
		case $variant in *fix_reverted)
			expect=loss
			fixup='if (foreign_lock) {$'
			[ "$(grep -c "$fixup" kmod/sigfd.c)" = 1 ] ||
				die "m2: not one '$fixup' (the M-2 fix-up) in kmod/sigfd.c: update build_m2_suite"
			sed -i "s/$fixup/if (foreign_lock \&\& sig) {/" "$out/m2-$variant/sigfd.c" ;;
		esac
		test_build_make "m2-$variant"
		printf '#!/bin/sh\nexec sh /x/guest-m2.sh /m2-%s.ko %s %s\n' \
			"$variant" $expect "$M2_SECONDS" >"$out/root/t/m2/$variant"
		chmod 755 "$out/root/t/m2/$variant"
	done
	cp kmod/guest-m2.sh "$out/root/x/guest-m2.sh"
}

# Suite "end": kmod/tests/unload_after_end on a test build of sigfd.c whose
# creator's end, the task work, stays in the module's code after its
# module_put() until an unload has begun, then END_WIDEN_MS more
# (SIGFD_TEST_WIDEN_END): the unload must wait for it to leave, or the task
# returns into freed code.
END_WIDEN_MS=500
build_end_suite() {
	mkdir -p "$out/root/t/end"
	test_build_sources end-widened "-DSIGFD_TEST_WIDEN_END=$END_WIDEN_MS"
	test_build_make end-widened
	printf '#!/bin/sh\nexec /t/kmod/unload_after_end /end-widened.ko\n' >"$out/root/t/end/widened"
	chmod 755 "$out/root/t/end/widened"
}

# The image is never installed on the host: only vmlinuz is taken from it.
fetch_kernel() {
	vmlinuz=$out/kernel/vmlinuz-$KVER
	[ "${KMOD_KERNEL:-}" = debug ] && vmlinuz=$debug_kernel/bzImage
	[ -s "$vmlinuz" ] && return 0
	mkdir -p "$out/kernel"
	tmp=$(mktemp -d)
	# shellcheck disable=SC2086
	(cd "$tmp" && apt-get $APT_OPTS download "linux-image-$KVER" 2>&1) |
		grep -v -e '_apt' -e 'sandbox' >&2 || true
	deb=$(ls "$tmp"/linux-image-*.deb 2>/dev/null | head -n 1)
	[ -n "$deb" ] || { rm -rf "$tmp"; die "cannot download linux-image-$KVER"; }
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" "./boot/vmlinuz-$KVER"
	mv "$tmp/boot/vmlinuz-$KVER" "$vmlinuz"
	rm -rf "$tmp"
}

. kernel/guest/lib.sh
CFLAGS_GUEST="-std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -pthread -Iinclude -Itests"

build_programs() {
	rm -rf "$out/obj" "$out/root"
	mkdir -p "$out/obj" "$out/root/t/kmod" "$out/root/t/share" "$out/root/x"
	guest_library
	# Not a pipe: the links run in the background of this shell.
	# shellcheck disable=SC2046 # words: SUITE/NAME SOURCE pairs
	set -- $(guest_sources)
	while [ $# -gt 0 ]; do
		mkdir -p "$out/root/t/${1%/*}"
		guest_program "$2" "$out/root/t/$1" -Ikmod
		shift 2
	done
	guest_model_suite "${KMOD_MODEL_SEEDS:-500}" "${KMOD_SOAK_SECONDS:-10}" "$MODEL_SECONDS"
	[ "$STRESS_SECONDS" = 0 ] || guest_stress_suite "$STRESS_SECONDS"
	build_m2_suite
	build_end_suite
	guest_programs_wait
	# shellcheck disable=SC2086 # a list of files
	guest_extra KMOD_EXTRA ${KMOD_EXTRA:-}
}

# The guest programs built from sources, "SUITE/NAME SOURCE" a line.
guest_sources() {
	for src in kmod/tests/*.c $(guest_tier_sources kmod); do
		[ -f "$src" ] || continue
		case $src in kmod/*) suite=kmod ;; *) suite=$(basename "$(dirname "$src")") ;; esac
		echo "$suite/$(basename "$src" .c) $src"
	done
}

build_initramfs() {
	guest_root
	cp "$out/sigfd.ko" "$out/root/sigfd.ko"
	cp kmod/guest-init.sh "$out/root/init"
	chmod 755 "$out/root/init"
	# shellcheck disable=SC2086
	guest_config "$TEST_TIMEOUT" "${KMOD_EXTRA_TIMEOUT:-600}" "${KMOD_ONLY:-}" \
		"${KMOD_EXTRA_RUN:-}" ${KMOD_EXTRA:-} >"$out/root/config"
	guest_initramfs
}

run_guest() {
	guest_boot "$GUEST_TIMEOUT" "${KMOD_SMP:-2}" "$GUEST_MEM" "$vmlinuz" "$BOOT_ARGS"
	set +e
	guest_judge module 1
	verdict=$?
	set -e
	printf 'kmod: guest run took %d.%01ds (kernel %s, console log %s)\n' \
		$((ms / 1000)) $((ms % 1000 / 100)) "$KVER" "${out#"$top"/}/console.log"
	return $verdict
}

case $mode in
--missing)
	resolve_kver || true
	m=$(missing_packages)
	[ -n "$m" ] && { echo "$m"; exit 1; }
	exit 0 ;;
--list)
	guest_sources
	exit 0 ;;
--build|run) ;;
*) die "usage: $0 [--build|--missing|--list]" ;;
esac

mkdir -p "$out"
# One run at a time per build dir: make check in several variants at once
# would otherwise build kmod/ and the initramfs over each other.
exec 9>"$out/.lock"
flock 9
ensure_packages
resolve_kver || die "cannot resolve the kernel ABI"
headers
build_module
note "built $out/sigfd.ko for $KVER"
[ "$mode" = --build ] && exit 0
t0=$(date +%s)
fetch_kernel
build_programs
build_initramfs
note "[$(date -u +%T)] prepared in $(( $(date +%s) - t0 ))s; booting $KVER under QEMU (TCG, ${KMOD_SMP:-2} CPUs, $GUEST_MEM MiB)"
run_guest
