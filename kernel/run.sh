#!/bin/sh
# SPDX-License-Identifier: MIT
# The patched-kernel tier: fetch Debian's kernel source with apt (never
# installed), apply the series in kernel/<version>/, build an x86_64
# tinyconfig kernel with the options in kernel/config.options, boot it under
# QEMU (TCG) and run, with SIGFD_BACKEND=native: the series' kselftest
# (tools/testing/selftests/signalfd), the programs of the tests/ folders of
# tier kpatch in tests/folders (the share suite tests/share/, and
# tests/lib/), the module's semantic tests listed in kernel/kmod-tests, and
# in suite "model" fuzz/model_diff (share mode against the kernel backends'
# model) and fuzz/soak.
# KPATCH_FLAVOUR=debug adds kernel/config.debug (KASAN, lockdep, debug
# objects: make kdebug-check); KPATCH_FLAVOUR=kcsan adds kernel/config.kcsan
# (KCSAN, which excludes KASAN: make kcsan-check). KPATCH_KERNEL=6.1 (--build only) is Debian's
# linux-source-6.1 unpatched, with kernel/config.module too, its build tree
# kept for building kmod/sigfd.ko against it (kmod/guest-run.sh with
# KMOD_KERNEL=debug).
#
# The kernel cache, outside the work tree (as ccache's), so that every
# checkout and every fresh clone (CI) shares it: SIGFD_KERNEL_CACHE, else
# /var/cache/sigfd-kernels when writable (root), else
# ${XDG_CACHE_HOME:-~/.cache}/sigfd-kernels. An entry,
# <cache>/<version>[-debug]/<key>/, holds bzImage, config, times, inputs;
# with a series, the tree's kselftest headers (selftests/) and checkpatch
# (checkpatch/); for 6.1, `tree`: the path of the kept build tree,
# <cache>/<version>-debug/tree-<key>/ (built where it stays: its Makefiles
# name their own paths). The key is a hash of the source package version,
# what the series changes in the kernel (each patch's sections outside
# tools/testing/selftests/), the option set and BUILD_RECIPE below, so a
# change to any of them builds anew. The commit messages and the selftest
# are not built into the kernel: each run checks the series with checkpatch
# and builds the selftest from kernel/selftest/, so editing them reuses the
# cached kernel. An entry
# appears whole or not at all: it is put together in .tmp-<key>/ and renamed
# into place under the key's lock (<key>.lock, also its last use: mtime); an
# interrupted build of the same key resumes in work-<key>/ (tree-<key>/).
# Per version and flavour the SIGFD_KERNEL_CACHE_KEEP (3) keys used last
# are kept, older ones removed when a build ends. The source .debs are kept
# in <cache>/dl/, one version a package. make clean leaves the cache alone:
# `make kcache-clean` (sh kernel/run.sh --cache-clean) empties it.
#
#   sh kernel/run.sh            build (or reuse), boot, run, report
#   sh kernel/run.sh --build    build (or reuse) the kernel only, print its
#                               cache entry (bzImage, config, times, tree)
#   sh kernel/run.sh --status   print "hit KEY ENTRY" or "cold KEY ENTRY"
#   sh kernel/run.sh --list     print the guest programs built from sources
#                               ("SUITE/NAME SOURCE"), build nothing
#                               (what --build would do), build nothing
#   sh kernel/run.sh --cache    print the cache's directory and its entries
#   sh kernel/run.sh --cache-clean  remove every entry not in use, and the .debs
#   sh kernel/run.sh --missing  print the missing host packages, exit 1 if any
#
# Environment:
#   KPATCH_KERNEL=6.12        6.12 (linux-source-6.12, bookworm-security, the
#                             host's apt sources) or 7.3 (linux-source-7.3 from
#                             trixie-backports through a private apt list), or
#                             6.1 (linux-source-6.1, no series, --build only)
#   KPATCH_FLAVOUR=debug      the debug kernel (kernel/config.debug); the guest
#                             gets 1 GiB and kasan_multi_shot, no panic_on_warn
#                             (the whole dmesg is judged at the end)
#   KPATCH_BUILD=build/kpatch where each run's own files go (per kernel version
#                             below: guest programs, initramfs, console and
#                             build logs); the kernels go to the cache above
#   SIGFD_KERNEL_CACHE=dir    the kernel cache (default above); relative: to
#                             the top directory
#   SIGFD_KERNEL_CACHE_KEEP=3 keys kept per kernel version and flavour
#   KPATCH_ONLY='selftest/* share/*'  run only the tests matching these patterns
#   KPATCH_EXTRA='prog ...'   more static programs copied to /x in the guest
#   KPATCH_EXTRA_RUN='cmd; cmd'  commands run after the tests (default: each
#                             KPATCH_EXTRA program without arguments)
#   KPATCH_MODEL_SEEDS=500    model/model_diff: sequences (seeds 1..N, about 40 a second;
#                             it stops early at half of KPATCH_TEST_TIMEOUT, 60 s
#                             for a debug kernel, and says how many)
#   KPATCH_SOAK_SECONDS=10    model/soak: seconds of rounds (seed 1)
#   KPATCH_SMP=2 KPATCH_MEM=512  guest CPUs and MiB (1024 for a debug kernel)
#   KPATCH_TIMEOUT=900        whole guest run; KPATCH_TEST_TIMEOUT=120 per test
#                             (2400 and 300 for a debug kernel)
#   KPATCH_STRESS_SECONDS=0   suite "stress": each kernel/stress/ program this
#                             long (25 for a debug kernel, 0: none)
#   KPATCH_JOBS=2             make -j for the kernel build (the CPU is shared)
#   KPATCH_NO_INSTALL=1       never apt-get install, even as root
#   KPATCH_DEV=dir            for work on the series: boot dir/bzImage and run
#                             dir/signalfd_creator_test instead of the cached build
#                             (copied to $KPATCH_BUILD/<version>/dev, never cached;
#                             nor checked with checkpatch)
set -eu
cd "$(dirname "$0")/.."
top=$PWD
ver=${KPATCH_KERNEL:-6.12}
case $ver in
6.1|6.12|7.3) ;;
*) echo "kpatch: KPATCH_KERNEL: 6.1, 6.12 or 7.3" >&2; exit 2 ;;
esac
flavour=${KPATCH_FLAVOUR:-}
case $flavour in
''|debug|kcsan) ;;
*) echo "kpatch: KPATCH_FLAVOUR: empty, debug or kcsan" >&2; exit 2 ;;
esac
base=${KPATCH_BUILD:-build/kpatch}
case $base in /*) ;; *) base=$top/$base ;; esac
out=$base/$ver${flavour:+-$flavour}
mode=${1:-run}
# 6.1 is the module's kernel: no series, its build tree kept for kmod/.
series=$top/kernel/$ver
[ "$ver" = 6.1 ] && series=

# The kernel cache (see the top): $CACHE, this version and flavour's
# directory $vdir in it, the .debs in $dl.
cache_dirs() {
	want=${SIGFD_KERNEL_CACHE:-/var/cache/sigfd-kernels}
	case $want in /*) ;; *) want=$top/$want ;; esac
	if mkdir -p "$want" 2>/dev/null && [ -w "$want" ]; then
		CACHE=$want
	else
		CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/sigfd-kernels
		[ -z "${SIGFD_KERNEL_CACHE:-}" ] || note "SIGFD_KERNEL_CACHE=$want is not writable: using $CACHE"
		mkdir -p "$CACHE" || die "cannot create the kernel cache $CACHE"
	fi
	vdir=$CACHE/$ver${flavour:+-$flavour}
	dl=$CACHE/dl
	mkdir -p "$vdir" "$dl"
}

# Each stage's line also goes to make check's output as it happens (a
# descriptor from tests/run-all: "# progress: shown" in tests/tiers/kpatch_guest.sh).
note() {
	printf 'kpatch: %s\n' "$*" >&2
	[ -z "${SIGFD_PROGRESS_FD:-}" ] || printf '  kpatch: %s\n' "$*" >&"$SIGFD_PROGRESS_FD"
}
# A progress line, with the time, for whoever watches a long run.
stage() { note "[$(date -u +%T)] $*"; }
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
		deb=$(ls "$dl"/"${PKG}"_*.deb 2>/dev/null | sort -V | tail -n 1)
		[ -n "$deb" ] || die "apt knows no $PKG (apt-get update?)"
		v=$(dpkg-deb -f "$deb" Version)
	fi
	echo "$v"
}

# The .deb, in the cache's dl/ (one version a package, shared by both
# flavours and every checkout): downloaded into a directory of its own, then
# renamed into place, under dl/'s lock.
fetch_source() {
	# shellcheck disable=SC2086 # $pattern is a glob
	pattern="${PKG}_$(echo "$PKGVER" | sed 's/:/%3a/')_*.deb"
	deb=$(ls "$dl"/$pattern 2>/dev/null | head -n 1)
	[ -n "$deb" ] && { note "source $(basename "$deb") from the cache"; return 0; }
	exec 7>>"$dl/.lock"
	flock 7
	deb=$(ls "$dl"/$pattern 2>/dev/null | head -n 1)
	if [ -z "$deb" ]; then
		rm -rf "$dl/.tmp-$PKG"
		mkdir -p "$dl/.tmp-$PKG"
		# shellcheck disable=SC2086
		size=$(apt-cache $APT_OPTS show "$PKG=$PKGVER" 2>/dev/null | sed -n 's/^Size: //p' | head -n 1)
		note "downloading $PKG $PKGVER${size:+ ($((size / 1000000)) MB)} into $dl"
		# shellcheck disable=SC2086
		(cd "$dl/.tmp-$PKG" && apt-get $APT_OPTS download "$PKG=$PKGVER" 2>&1) |
			grep -v -e '_apt' -e 'sandbox' >&2 || true
		new=$(ls "$dl/.tmp-$PKG"/$pattern 2>/dev/null | head -n 1)
		[ -n "$new" ] || { rm -rf "$dl/.tmp-$PKG"; die "cannot download $PKG $PKGVER"; }
		rm -f "$dl/${PKG}"_*.deb
		mv "$new" "$dl/"
		rm -rf "$dl/.tmp-$PKG"
		deb=$(ls "$dl"/$pattern | head -n 1)
	fi
	exec 7>&-
}

# The patches of the series, without the cover letter (0000-*).
series_patches() {
	ls "$series"/*.patch | grep -v '/0000-'
}

# What of patch $1 the kernel build reads: its sections for files outside
# tools/testing/selftests/ (not its message, not the selftest).
kernel_sections() {
	awk '/^diff --git / { keep = $3 !~ /^a\/tools\/testing\/selftests\// } keep' "$1"
}

# What the cache key covers: the recipe below must bump BUILD_RECIPE when it
# changes what gets built.
BUILD_RECIPE=2
cache_key() {
	{
		echo "recipe $BUILD_RECIPE $PKG $PKGVER ${flavour:-plain}"
		config_options
		[ -z "$series" ] || for p in $(series_patches); do kernel_sections "$p"; done
	} | sha256sum | cut -c1-16
}

# The options on top of tinyconfig, one a line (!NAME: off): config.options,
# the debug flavour's, the module's; '#' starts a comment.
config_options() {
	files=$top/kernel/config.options
	[ "$flavour" = debug ] && files="$files $top/kernel/config.debug"
	[ "$flavour" = kcsan ] && files="$files $top/kernel/config.kcsan"
	[ "$ver" = 6.1 ] && files="$files $top/kernel/config.module"
	# shellcheck disable=SC2086 # a list of files
	sed 's/#.*//' $files | tr -s ' \t' '\n' | grep .
	# From 6.13 the preemption choice defaults to PREEMPT_LAZY on x86,
	# which outvotes an enabled PREEMPT; the debug kernels want full
	# preemption, the most interleavings.
	case $ver in 6.*) ;; *) if [ -n "$flavour" ]; then echo '!PREEMPT_LAZY'; fi ;; esac
}

configure_kernel() {
	src=$1 obj=$2
	make -s -C "$src" O="$obj" ARCH=x86_64 tinyconfig >/dev/null
	opts=
	for o in $(config_options); do
		case $o in !*) opts="$opts -d ${o#!}" ;; *) opts="$opts -e $o" ;; esac
	done
	# shellcheck disable=SC2086
	"$src/scripts/config" --file "$obj/.config" $opts
	make -s -C "$src" O="$obj" ARCH=x86_64 olddefconfig >/dev/null
	for o in $(config_options); do
		case $o in
		!*) ! grep -q "^CONFIG_${o#!}=y" "$obj/.config" || die "CONFIG_${o#!} is still on" ;;
		*) grep -q "^CONFIG_$o=y" "$obj/.config" || die "CONFIG_$o did not stick" ;;
		esac
	done
}

# make in the background, a line about every minute while it runs.
make_kernel() {
	log=$1
	shift
	rm -f "$log.rc"
	{
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u CC -u CFLAGS make "$@" >"$log" 2>&1
		echo $? >"$log.rc"
	} &
	b0=$(now) next=60
	while [ ! -s "$log.rc" ]; do
		sleep 2
		[ $(( $(now) - b0 )) -lt $next ] && continue
		next=$((next + 60))
		stage "building: $(( ($(now) - b0) / 60 )) min, $(grep -c '^  [A-Z]' "$log") steps done, load $(cut -d' ' -f1 /proc/loadavg)"
	done
	wait
	return "$(cat "$log.rc")"
}

# Into $work: the source, the series applied and checked, the .config;
# t1 and t2 when unpacking and configuring ended.
unpack_patch_configure() {
	stage "unpacking $(basename "$deb")"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO --wildcards './usr/src/linux-source-*.tar.xz' |
		xz -dc | tar -x -C "$work/src" --strip-components=1
	t1=$(now)
	if [ -n "$series" ]; then
		for p in $(series_patches); do
			patch -d "$work/src" -p1 --quiet --forward --no-backup-if-mismatch <"$p" ||
				die "$(basename "$p") does not apply to $PKG $PKGVER"
		done
	fi
	stage "configuring (tinyconfig + $(config_options | wc -l) options${flavour:+, $flavour flavour})"
	configure_kernel "$work/src" "$work/obj"
	touch "$work/configured"
	t2=$(now)
}

# The key's lock on descriptor 8: -s while the entry is used (booted, or
# its tree built against), -x while it is built. An eviction removes a
# key's lock file while holding it: a lock taken on a file no longer there
# is taken again. Its mtime is the key's last use.
lock_key() {
	while :; do
		exec 8>>"$vdir/$KEY.lock"
		if ! flock -n "$1" 8; then
			note "kernel cache: key $KEY is being built (or used) by another run: waiting for it"
			flock "$1" 8
		fi
		[ "$(stat -c %d:%i "$vdir/$KEY.lock" 2>/dev/null)" = "$(stat -L -c %d:%i /proc/$$/fd/8)" ] &&
			break
	done
	touch "$vdir/$KEY.lock"
}

# A whole entry: what the guests and kmod/ need is there.
entry_ok() {
	[ -s "$entry/bzImage" ] || return 1
	if [ -n "$series" ]; then
		[ -f "$entry/selftests/kselftest_harness.h" ] && [ -f "$entry/checkpatch/checkpatch.pl" ]
	else
		[ -f "$(cat "$entry/tree" 2>/dev/null)/obj/Module.symvers" ]
	fi
}

# Every key under the version directory $1, "LAST-USE KEY", last used first.
cache_keys() {
	for f in "$1"/* "$1"/.tmp-*; do
		[ -e "$f" ] || continue
		k=${f##*/} && k=${k#.tmp-} && k=${k#work-} && k=${k#tree-} && k=${k%.lock}
		case $k in ????????????????) ;; *) continue ;; esac
		case $k in *[!0-9a-f]*) continue ;; esac
		echo "$(stat -c %Y "$1/$k.lock" 2>/dev/null || echo 0) $k"
	done | sort -k1,1nr -k2,2 | awk '!seen[$2]++'
}

# Removes key $2 of version directory $1 (entry, build, tree, lock) unless a
# run holds its lock.
cache_remove() {
	flock -n -x "$1/$2.lock" rm -rf "$1/$2" "$1/.tmp-$2" "$1/work-$2" "$1/tree-$2" "$1/$2.lock"
}

# Keeps the SIGFD_KERNEL_CACHE_KEEP keys of this version and flavour used last.
cache_evict() {
	keep=${SIGFD_KERNEL_CACHE_KEEP:-3}
	cache_keys "$vdir" | sed -n "$((keep + 1)),\$p" | while read -r used k; do
		[ "$k" = "$KEY" ] && continue
		if cache_remove "$vdir" "$k"; then
			note "kernel cache: removed key $k of $(basename "$vdir") (last used $(date -u -d "@$used" +%F), $keep newer kept)"
		fi
	done
}

build_kernel() {
	if [ -n "${KPATCH_DEV:-}" ]; then
		entry=$out/dev
		rm -rf "$entry"
		mkdir -p "$entry"
		cp "$KPATCH_DEV/bzImage" "$KPATCH_DEV/signalfd_creator_test" "$entry/"
		note "KPATCH_DEV: using $KPATCH_DEV (not a tested build of the series, not cached)"
		return 0
	fi
	[ -z "$series" ] || [ -n "$(series_patches 2>/dev/null)" ] || die "no series in ${series#"$top"/}"
	what="$PKG $PKGVER${series:+ + series of $(series_patches | wc -l) patches}${flavour:+, $flavour flavour}"
	lock_key -s
	if entry_ok; then
		note "kernel cache: hit, key $KEY ($what): $entry"
		return 0
	fi
	lock_key -x
	if entry_ok; then
		note "kernel cache: hit, key $KEY ($what, built by another run meanwhile): $entry"
		lock_key -s
		return 0
	fi
	# The module's kernel keeps its tree (kmod/ is built against it) where
	# it was built: the tree's Makefiles name their own paths. A build of
	# the same key that was interrupted after configuring goes on where it
	# stopped (make is incremental): a debug kernel takes long.
	work=$vdir/work-$KEY targets=bzImage
	[ -z "$series" ] && work=$vdir/tree-$KEY targets="bzImage modules"
	if [ -f "$work/configured" ]; then
		note "kernel cache: miss, key $KEY ($what): resuming the interrupted build in $work"
	else
		note "kernel cache: miss, key $KEY ($what): cold build into $entry"
	fi
	stage "download $PKG $PKGVER"
	fetch_source
	t0=$(now)
	if [ -f "$work/configured" ]; then
		stage "resuming the interrupted build in $work"
		t1=$t0 t2=$t0
	else
		rm -rf "$work"
		mkdir -p "$work/src"
		unpack_patch_configure
	fi
	stage "building $targets (make -j${KPATCH_JOBS:-2}; about 5 minutes on 2 cores, a debug kernel far longer)"
	log=$out/build.log
	# shellcheck disable=SC2086 # a list of targets
	make_kernel "$log" -C "$work/src" O="$work/obj" ARCH=x86_64 -j"${KPATCH_JOBS:-2}" $targets ||
		{ tail -n 40 "$log" >&2; die "kernel build failed (log: ${log#"$top"/})"; }
	# Debug options make gcc warn where a plain build does not: the rule
	# "no warnings" judges the plain build.
	if [ -z "$flavour" ] && grep -E 'warning:|error:' "$log" >&2; then
		die "the kernel build has warnings (log: ${log#"$top"/})"
	fi
	t3=$(now)
	# The entry is put together beside its place, then renamed into it: a
	# run never sees half of one, whatever stops this one.
	tmp=$vdir/.tmp-$KEY
	rm -rf "$tmp"
	mkdir -p "$tmp"
	if [ -n "$series" ]; then
		mkdir "$tmp/selftests" "$tmp/checkpatch"
		cp "$work/src"/tools/testing/selftests/*.h "$tmp/selftests/"
		cp "$work/src/scripts/checkpatch.pl" "$work/src/scripts/spelling.txt" \
			"$work/src/scripts/const_structs.checkpatch" "$tmp/checkpatch/"
	fi
	cp "$work/obj/arch/x86/boot/bzImage" "$tmp/bzImage"
	cp "$work/obj/.config" "$tmp/config"
	printf 'unpack %ss, configure %ss, build %ss, load %s\n' $((t1 - t0)) $((t2 - t1)) $((t3 - t2)) \
		"$(cut -d' ' -f1-3 /proc/loadavg)" >"$tmp/times"
	{
		echo "key $KEY: recipe $BUILD_RECIPE $PKG $PKGVER ${flavour:-plain}"
		[ -z "$series" ] || for p in $(series_patches); do
			echo "patch $(kernel_sections "$p" | sha256sum | cut -c1-16) ${p#"$top"/} (its kernel sections)"
		done
		echo "options $(config_options | tr '\n' ' ')"
		echo "built $(date -u +%FT%TZ) from $top"
	} >"$tmp/inputs"
	if [ -z "$series" ]; then
		# External modules need the headers, the scripts, objtool and
		# Module.symvers, not the kernel's objects.
		find "$work/obj" -name '*.o' ! -path "$work/obj/scripts/*" ! -path "$work/obj/tools/*" -delete
		echo "$work" >"$tmp/tree"
	fi
	rm -rf "$entry"
	mv -T "$tmp" "$entry"
	if [ -n "$series" ]; then
		rm -rf "$work"
	else
		rm "$work/configured"
	fi
	note "built $PKG $PKGVER${series:+ + series}${flavour:+ ($flavour)} in $((t3 - t0))s (unpack $((t1 - t0))s, build $((t3 - t2))s); cached as key $KEY in $entry"
	lock_key -s
	cache_evict
}

# sh kernel/run.sh --cache: the cache's directory, each entry with its last
# use, size and build times.
cache_list() {
	echo "kernel cache: $CACHE"
	for d in "$CACHE"/*/; do
		d=${d%/}
		[ "${d##*/}" = dl ] && continue
		cache_keys "$d" | while read -r used k; do
			size=$(du -sc "$d/$k" "$d/tree-$k" "$d/work-$k" 2>/dev/null | tail -n 1 | cut -f1)
			state=entry
			[ -d "$d/$k" ] || state="unfinished build"
			printf '  %s/%s  last used %s  %s MB  %s%s\n' "${d##*/}" "$k" \
				"$(date -u -d "@$used" '+%F %T')" $((size / 1024)) "$state" \
				"$(cat "$d/$k/times" 2>/dev/null | sed 's/^/: /')"
		done
	done
	ls "$CACHE"/dl/*.deb 2>/dev/null | sed 's|.*/|  dl/|'
}

# sh kernel/run.sh --cache-clean: every key no run is using, and the .debs.
cache_clean() {
	for d in "$CACHE"/*/; do
		d=${d%/}
		[ "${d##*/}" = dl ] && continue
		cache_keys "$d" | while read -r _ k; do
			cache_remove "$d" "$k" || note "kernel cache: ${d##*/}/$k is in use: kept"
		done
		rmdir "$d" 2>/dev/null || true
	done
	flock -n -x "$CACHE/dl/.lock" sh -c 'rm -rf "$1"/*.deb "$1"/.tmp-*' sh "$CACHE/dl" ||
		note "kernel cache: a download is under way: dl/ kept"
	echo "kernel cache: $CACHE emptied"
}

# The guest: a debug kernel runs slower, needs room for KASAN's shadow, and
# must go on past a first report (kasan_multi_shot, no panic_on_warn) so
# that the whole dmesg is judged; it also runs the race-stress programs.
if [ -n "$flavour" ]; then
	GUEST_MEM=${KPATCH_MEM:-1024} GUEST_TIMEOUT=${KPATCH_TIMEOUT:-2400}
	TEST_TIMEOUT=${KPATCH_TEST_TIMEOUT:-300} STRESS_SECONDS=${KPATCH_STRESS_SECONDS:-25}
	BOOT_ARGS=kasan_multi_shot MODEL_SECONDS=60
	export GUEST_FLOOD_COUNT=${GUEST_FLOOD_COUNT:-10000}
else
	GUEST_MEM=${KPATCH_MEM:-512} GUEST_TIMEOUT=${KPATCH_TIMEOUT:-900}
	TEST_TIMEOUT=${KPATCH_TEST_TIMEOUT:-120} STRESS_SECONDS=${KPATCH_STRESS_SECONDS:-0}
	BOOT_ARGS=panic_on_warn=1 MODEL_SECONDS=$((TEST_TIMEOUT / 2))
fi

. kernel/guest/lib.sh
CFLAGS_GUEST="-std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -pthread -Iinclude -Itests"

# The series as posted, checked at every run (the cache key leaves out the
# messages and the selftest), as a maintainer would check it: checkpatch
# --strict of the kernel's own tree. No patch carries a Signed-off-by: (the
# submitter's to add); the new selftest directory is covered by existing
# MAINTAINERS entries, so checkpatch's "does MAINTAINERS need updating?" is
# answered. Without a git tree, checkpatch cannot look up the commit ids
# that patch 1's Fixes: and message name (UNKNOWN_COMMIT_ID); their form it
# still checks. GIT_DIR: this checkout is not the kernel's git tree.
checkpatch_series() {
	# shellcheck disable=SC2046 # a list of files
	GIT_DIR=/nonexistent perl "$entry/checkpatch/checkpatch.pl" --no-tree --strict --quiet \
		--no-signoff --ignore FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID $(series_patches) >&2 ||
		die "checkpatch --strict: the series is not clean"
}

# The selftest from its one source, kernel/selftest/, against the kselftest
# harness of the cached kernel's tree, with the kernel selftests' warnings
# (-Wall) as errors, under gcc and, where installed, clang.
build_selftest() {
	st=$out/obj/selftests
	mkdir -p "$st/signalfd"
	cp "$entry"/selftests/*.h "$st/"
	cp kernel/selftest/signalfd_creator_test.c "$st/signalfd/"
	gcc -static -Wall -Werror -O2 -g -pthread -o "$out/root/t/selftest/signalfd_creator_test" \
		"$st/signalfd/signalfd_creator_test.c" -lrt || die "cannot build the selftest"
	if command -v clang >/dev/null; then
		clang -fsyntax-only -Wall -Werror -pthread "$st/signalfd/signalfd_creator_test.c" ||
			die "the selftest has clang warnings"
	fi
}

build_programs() {
	rm -rf "$out/obj" "$out/root"
	mkdir -p "$out/obj/kmod" "$out/root/t/selftest" "$out/root/t/share" "$out/root/t/kmod" \
		"$out/root/t/lib" "$out/root/x"
	guest_library
	if [ -n "${KPATCH_DEV:-}" ]; then
		cp "$entry/signalfd_creator_test" "$out/root/t/selftest/"
	else
		checkpatch_series
		build_selftest
	fi
	list=$(guest_sources) || exit 1
	# shellcheck disable=SC2086 # words: SUITE/NAME SOURCE pairs
	set -- $list
	while [ $# -gt 0 ]; do
		mkdir -p "$out/root/t/${1%/*}"
		# The module's tests, against SFD_CREATOR (kmod/tests/kmod_util.h).
		case $1 in
		kmod/*) guest_program "$2" "$out/root/t/$1" -DSIGFD_KMOD_AS_SFD_CREATOR ;;
		*) guest_program "$2" "$out/root/t/$1" ;;
		esac
		shift 2
	done
	guest_model_suite "${KPATCH_MODEL_SEEDS:-500}" "${KPATCH_SOAK_SECONDS:-10}" "$MODEL_SECONDS"
	[ "$STRESS_SECONDS" = 0 ] || guest_stress_suite "$STRESS_SECONDS"
	guest_programs_wait
	# shellcheck disable=SC2086 # a list of files
	guest_extra KPATCH_EXTRA ${KPATCH_EXTRA:-}
}

# The guest programs built from sources, "SUITE/NAME SOURCE" a line: the
# module's tests named in kernel/kmod-tests, and the programs of the tests/
# folders of tier kpatch in tests/folders (suite FOLDER: tests/share/, and
# tests/lib/errors_native_absent.c for its branch for a kernel with the flag).
guest_sources() {
	for name in $(grep -v '^#' kernel/kmod-tests); do
		[ -f "kmod/tests/$name.c" ] || die "kernel/kmod-tests: no kmod/tests/$name.c"
		echo "kmod/$name kmod/tests/$name.c"
	done
	for src in $(guest_tier_sources kpatch); do
		echo "$(basename "$(dirname "$src")")/$(basename "$src" .c) $src"
	done
}

build_initramfs() {
	guest_root
	cp kernel/guest/init.sh "$out/root/init"
	chmod 755 "$out/root/init"
	# shellcheck disable=SC2086
	guest_config "$TEST_TIMEOUT" "${KPATCH_EXTRA_TIMEOUT:-900}" "${KPATCH_ONLY:-}" \
		"${KPATCH_EXTRA_RUN:-}" ${KPATCH_EXTRA:-} >"$out/root/config"
	guest_initramfs
}

run_guest() {
	guest_boot "$GUEST_TIMEOUT" "${KPATCH_SMP:-2}" "$GUEST_MEM" "$entry/bzImage" "$BOOT_ARGS"
	set +e
	guest_judge sfd-creator 0
	verdict=$?
	set -e
	printf 'kpatch: guest run took %d.%01ds (%s %s + series%s, console log %s)\n' \
		$((ms / 1000)) $((ms % 1000 / 100)) "$PKG" "$PKGVER" "${flavour:+, $flavour kernel}" \
		"${out#"$top"/}/console.log"
	return $verdict
}

case $mode in
--missing)
	m=$(missing_packages)
	[ -n "$m" ] && { echo "$m"; exit 1; }
	exit 0 ;;
--list)
	guest_sources
	exit 0 ;;
--cache|--cache-clean)
	cache_dirs
	if [ "$mode" = --cache ]; then cache_list; else cache_clean; fi
	exit 0 ;;
--build|--status|run) ;;
*) die "usage: $0 [--build|--status|--cache|--cache-clean|--missing|--list]" ;;
esac
[ -n "$series" ] || [ "$mode" != run ] ||
	die "6.1 has no series: kmod/guest-run.sh boots it with the module (make kdebug-check)"

cache_dirs
if [ "$mode" = --status ]; then
	apt_setup
	PKGVER=$(pkg_version)
	KEY=$(cache_key)
	entry=$vdir/$KEY
	if entry_ok; then echo "hit $KEY $entry"; else echo "cold $KEY $entry"; fi
	exit 0
fi
mkdir -p "$out"
exec 9>"$out/.lock"
flock 9
ensure_packages
apt_setup
PKGVER=$(pkg_version)
KEY=$(cache_key)
entry=$vdir/$KEY
build_kernel
# For kmod/guest-run.sh: where the kernel (and a 6.1 tree) is.
[ "$mode" = --build ] && { echo "$entry"; exit 0; }
t0=$(now)
build_programs
build_initramfs
stage "prepared in $(( $(now) - t0 ))s; booting $PKG $PKGVER + series${flavour:+ ($flavour)} under QEMU (TCG, ${KPATCH_SMP:-2} CPUs, $GUEST_MEM MiB)"
run_guest
