#!/bin/sh
# SPDX-License-Identifier: MIT
# The patched-kernel tier: fetch Debian's kernel source with apt (never
# installed), apply the series in kernel/<version>/, build an x86_64
# tinyconfig kernel with the options in kernel/config.options, boot it under
# QEMU (TCG) and run, with SIGFD_BACKEND=native: the series' kselftest
# (tools/testing/selftests/signalfd), the share suite tests/share_*.c, the
# module's semantic tests listed in kernel/kmod-tests,
# tests/errors_native_absent.c (its branch for a kernel with the flag), and
# in suite "model" fuzz/model_diff (share mode against the kernel backends'
# model) and fuzz/soak. The built kernel and
# selftest are cached under the hash of the source package version, the
# series, the options and this script's build recipe, so a rerun boots at once.
#
#   sh kernel/run.sh            build (or reuse), boot, run, report
#   sh kernel/run.sh --build    build (or reuse) the kernel only
#   sh kernel/run.sh --missing  print the missing host packages, exit 1 if any
#
# Environment:
#   KPATCH_KERNEL=6.12        6.12 (linux-source-6.12, bookworm-security, the
#                             host's apt sources) or 7.3 (linux-source-7.3 from
#                             trixie-backports through a private apt list)
#   KPATCH_BUILD=build/kpatch where everything goes (per kernel version below)
#   KPATCH_ONLY='selftest/* share/*'  run only the tests matching these patterns
#   KPATCH_EXTRA='prog ...'   more static programs copied to /x in the guest
#   KPATCH_EXTRA_RUN='cmd; cmd'  commands run after the tests (default: each
#                             KPATCH_EXTRA program without arguments)
#   KPATCH_MODEL_SEEDS=500    model/model_diff: sequences (seeds 1..N, about 40 a second;
#                             it stops early at half of KPATCH_TEST_TIMEOUT and says how many)
#   KPATCH_SOAK_SECONDS=10    model/soak: seconds of rounds (seed 1)
#   KPATCH_SMP=2 KPATCH_MEM=512  guest CPUs and MiB
#   KPATCH_TIMEOUT=900        whole guest run; KPATCH_TEST_TIMEOUT=120 per test
#   KPATCH_JOBS=2             make -j for the kernel build (the CPU is shared)
#   KPATCH_NO_INSTALL=1       never apt-get install, even as root
#   KPATCH_DEV=dir            for work on the series: boot dir/bzImage and run
#                             dir/signalfd_creator_test instead of the cached build
set -eu
cd "$(dirname "$0")/.."
top=$PWD
ver=${KPATCH_KERNEL:-6.12}
case $ver in
6.12|7.3) ;;
*) echo "kpatch: KPATCH_KERNEL: 6.12 or 7.3" >&2; exit 2 ;;
esac
base=${KPATCH_BUILD:-build/kpatch}
case $base in /*) ;; *) base=$top/$base ;; esac
out=$base/$ver
mode=${1:-run}
series=$top/kernel/$ver

note() { printf 'kpatch: %s\n' "$*" >&2; }
die() { note "$*"; exit 1; }
now() { date +%s; }

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }

missing_packages() {
	m=
	for tool in qemu-system-x86_64:qemu-system-x86 cpio:cpio gzip:gzip gcc:gcc make:make \
		flex:flex bison:bison bc:bc xz:xz-utils patch:patch; do
		command -v "${tool%%:*}" >/dev/null 2>&1 || m="$m ${tool#*:}"
	done
	installed busybox-static || m="$m busybox-static"
	installed libelf-dev || m="$m libelf-dev"
	installed perl || m="$m perl" # checkpatch.pl needs more than perl-base
	[ -f /usr/lib/x86_64-linux-gnu/libc.a ] || m="$m libc6-dev"
	echo "${m# }"
}

ensure_packages() {
	m=$(missing_packages)
	[ -z "$m" ] && return 0
	if [ "$(id -u)" = 0 ] && [ -z "${KPATCH_NO_INSTALL:-}" ]; then
		note "installing: $m"
		apt-get update -qq >&2
		# shellcheck disable=SC2086
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $m >&2 ||
			die "apt-get install failed: $m"
		m=$(missing_packages)
	fi
	[ -z "$m" ] || die "missing packages: $m"
}

# apt options: the host's own sources for 6.12; for 7.3 trixie-backports
# through apt state of our own, so the host's sources and lists stay as
# they are.
APT_OPTS=
apt_setup() {
	[ "$ver" = 7.3 ] || return 0
	a=$base/apt-trixie-backports
	mkdir -p "$a/lists/partial" "$a/cache/archives/partial"
	echo "deb http://deb.debian.org/debian trixie-backports main" >"$a/sources.list"
	APT_OPTS="-o Dir::Etc::sourcelist=$a/sources.list -o Dir::Etc::sourceparts=- -o Dir::State::Lists=$a/lists -o Dir::Cache=$a/cache"
	ls "$a/lists" | grep -q Packages ||
		apt-get $APT_OPTS update -qq 2>&1 | grep -v -e '_apt' -e 'sandbox' >&2 || true
}

# The source package: its version (for the cache key) and the .deb.
PKG=linux-source-$ver
pkg_version() {
	# shellcheck disable=SC2086
	v=$(apt-cache $APT_OPTS policy "$PKG" 2>/dev/null | sed -n 's/^ *Candidate: //p')
	if [ -z "$v" ] || [ "$v" = "(none)" ]; then
		# No apt lists: a .deb fetched earlier will do.
		deb=$(ls "$out"/dl/"${PKG}"_*.deb 2>/dev/null | sort -V | tail -n 1)
		[ -n "$deb" ] || die "apt knows no $PKG (apt-get update?)"
		v=$(dpkg-deb -f "$deb" Version)
	fi
	echo "$v"
}

fetch_source() {
	deb=$(ls "$out"/dl/"${PKG}_$(echo "$PKGVER" | sed 's/:/%3a/')"_*.deb 2>/dev/null | head -n 1)
	[ -n "$deb" ] && return 0
	mkdir -p "$out/dl"
	rm -f "$out"/dl/*.deb
	# shellcheck disable=SC2086
	(cd "$out/dl" && apt-get $APT_OPTS download "$PKG=$PKGVER" 2>&1) |
		grep -v -e '_apt' -e 'sandbox' >&2 || true
	deb=$(ls "$out"/dl/"${PKG}"_*.deb 2>/dev/null | head -n 1)
	[ -n "$deb" ] || die "cannot download $PKG $PKGVER"
}

# The patches of the series, without the cover letter (0000-*).
series_patches() {
	ls "$series"/*.patch | grep -v '/0000-'
}

# What the cache key covers: the recipe below must bump BUILD_RECIPE when it
# changes what gets built.
BUILD_RECIPE=1
cache_key() {
	{
		echo "recipe $BUILD_RECIPE $PKG $PKGVER"
		cat "$top/kernel/config.options"
		for p in "$series"/*.patch; do cat "$p"; done
	} | sha256sum | cut -c1-16
}

configure_kernel() {
	src=$1 obj=$2
	make -s -C "$src" O="$obj" ARCH=x86_64 tinyconfig >/dev/null
	opts=
	for o in $(cat "$top/kernel/config.options"); do opts="$opts -e $o"; done
	# shellcheck disable=SC2086
	"$src/scripts/config" --file "$obj/.config" $opts
	make -s -C "$src" O="$obj" ARCH=x86_64 olddefconfig >/dev/null
	for o in $(cat "$top/kernel/config.options"); do
		grep -q "^CONFIG_$o=y" "$obj/.config" || die "CONFIG_$o did not stick"
	done
}

build_kernel() {
	cache=$out/cache/$KEY
	if [ -n "${KPATCH_DEV:-}" ]; then
		mkdir -p "$cache"
		cp "$KPATCH_DEV/bzImage" "$KPATCH_DEV/signalfd_creator_test" "$cache/"
		note "KPATCH_DEV: using $KPATCH_DEV (not a tested build of the series)"
		return 0
	fi
	if [ -s "$cache/bzImage" ] && [ -x "$cache/signalfd_creator_test" ]; then
		note "cached kernel $cache (source $PKGVER, series $(series_patches | wc -l) patches)"
		return 0
	fi
	[ -n "$(series_patches 2>/dev/null)" ] || die "no series in ${series#"$top"/}"
	fetch_source
	t0=$(now)
	work=$out/work
	rm -rf "$work"
	mkdir -p "$work/src"
	note "unpacking $(basename "$deb")"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO --wildcards './usr/src/linux-source-*.tar.xz' |
		xz -dc | tar -x -C "$work/src" --strip-components=1
	t1=$(now)
	for p in $(series_patches); do
		patch -d "$work/src" -p1 --quiet --forward --no-backup-if-mismatch <"$p" ||
			die "$(basename "$p") does not apply to $PKG $PKGVER"
	done
	# The kernel's own style check, as a maintainer would run it. No patch
	# carries a Signed-off-by: (the submitter's to add); the new selftest
	# directory is covered by existing MAINTAINERS entries, so checkpatch's
	# "does MAINTAINERS need updating?" is answered.
	# shellcheck disable=SC2046 # a list of files
	(cd "$work/src" && perl scripts/checkpatch.pl --strict --quiet --no-signoff \
		--ignore FILE_PATH_CHANGES $(series_patches)) >&2 ||
		die "checkpatch --strict: the series is not clean"
	configure_kernel "$work/src" "$work/obj"
	note "building (make -j${KPATCH_JOBS:-2}; about 5 minutes on 2 cores)"
	log=$out/build.log
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u CC -u CFLAGS \
		make -C "$work/src" O="$work/obj" ARCH=x86_64 -j"${KPATCH_JOBS:-2}" bzImage >"$log" 2>&1 ||
		{ tail -n 40 "$log" >&2; die "kernel build failed (log: ${log#"$top"/})"; }
	if grep -E 'warning:|error:' "$log" >&2; then
		die "the kernel build has warnings (log: ${log#"$top"/})"
	fi
	t2=$(now)
	st=$work/src/tools/testing/selftests/signalfd
	mkdir -p "$cache.tmp"
	gcc -static -Wall -Werror -O2 -g -pthread \
		-o "$cache.tmp/signalfd_creator_test" "$st/signalfd_creator_test.c" -lrt ||
		die "cannot build the selftest"
	cp "$work/obj/arch/x86/boot/bzImage" "$cache.tmp/bzImage"
	cp "$work/obj/.config" "$cache.tmp/config"
	printf 'unpack %ss, build %ss\n' $((t1 - t0)) $((t2 - t1)) >"$cache.tmp/times"
	rm -rf "$cache"
	mv "$cache.tmp" "$cache"
	rm -rf "$work"
	note "built $PKG $PKGVER + series in $((t2 - t0))s (unpack $((t1 - t0))s); cached as $KEY"
}

. kernel/guest/lib.sh
CFLAGS_GUEST="-std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -pthread -Iinclude -Itests"

build_programs() {
	rm -rf "$out/obj" "$out/root"
	mkdir -p "$out/obj/kmod" "$out/root/t/selftest" "$out/root/t/share" "$out/root/t/kmod" \
		"$out/root/t/lib" "$out/root/x"
	guest_library
	# The module's tests, each beside our helper header instead of theirs.
	cp kernel/guest/kmod_util.h kmod/tests/proc_util.h "$out/obj/kmod/"
	for name in $(grep -v '^#' kernel/kmod-tests); do
		cp "kmod/tests/$name.c" "$out/obj/kmod/" || die "kernel/kmod-tests: no kmod/tests/$name.c"
	done
	cp "$out/cache/$KEY/signalfd_creator_test" "$out/root/t/selftest/"
	# tests/errors_native_absent.c: its branch for a kernel with the flag.
	for src in "$out"/obj/kmod/*.c tests/share_*.c tests/errors_native_absent.c; do
		[ -f "$src" ] || continue
		case $src in
		"$out"/*) suite=kmod ;;
		tests/share_*) suite=share ;;
		*) suite=lib ;;
		esac
		guest_program "$src" "$out/root/t/$suite/$(basename "$src" .c)"
	done
	guest_model_suite "${KPATCH_MODEL_SEEDS:-500}" "${KPATCH_SOAK_SECONDS:-10}" "$(( ${KPATCH_TEST_TIMEOUT:-120} / 2 ))"
	guest_programs_wait
	# shellcheck disable=SC2086 # a list of files
	guest_extra KPATCH_EXTRA ${KPATCH_EXTRA:-}
}

build_initramfs() {
	guest_root
	cp kernel/guest/init.sh "$out/root/init"
	chmod 755 "$out/root/init"
	# shellcheck disable=SC2086
	guest_config "${KPATCH_TEST_TIMEOUT:-120}" "${KPATCH_EXTRA_TIMEOUT:-900}" "${KPATCH_ONLY:-}" \
		"${KPATCH_EXTRA_RUN:-}" ${KPATCH_EXTRA:-} >"$out/root/config"
	guest_initramfs
}

run_guest() {
	guest_boot "${KPATCH_TIMEOUT:-900}" "${KPATCH_SMP:-2}" "${KPATCH_MEM:-512}" "$out/cache/$KEY/bzImage" \
		panic_on_warn=1
	set +e
	guest_judge kernel/share-known-differences 0
	verdict=$?
	set -e
	printf 'kpatch: guest run took %d.%01ds (%s %s + series, console log %s)\n' \
		$((ms / 1000)) $((ms % 1000 / 100)) "$PKG" "$PKGVER" "${out#"$top"/}/console.log"
	return $verdict
}

case $mode in
--missing)
	m=$(missing_packages)
	[ -n "$m" ] && { echo "$m"; exit 1; }
	exit 0 ;;
--build|run) ;;
*) die "usage: $0 [--build|--missing]" ;;
esac

mkdir -p "$out"
exec 9>"$out/.lock"
flock 9
ensure_packages
apt_setup
PKGVER=$(pkg_version)
KEY=$(cache_key)
[ -z "${KPATCH_DEV:-}" ] || KEY=dev
build_kernel
[ "$mode" = --build ] && exit 0
t0=$(now)
build_programs
build_initramfs
note "prepared in $(( $(now) - t0 ))s; booting $PKG $PKGVER + series under QEMU (TCG, ${KPATCH_SMP:-2} CPUs)"
run_guest
