#!/bin/sh
# SPDX-License-Identifier: MIT
# make deb-check: see debian/deb.mk. Installs the packages it builds and
# removes them again, so it refuses to run where any of them is installed
# already. DEB_BUILD_OPTIONS is passed on (nocheck skips the suite inside
# the package build). Build products go to DEB_CHECK_DIR (a fresh temporary
# directory by default, removed at the end unless DEB_CHECK_KEEP=1).
set -eu
cd "$(dirname "$0")/.."
top=$PWD
pkgs="libsigfd0 libsigfd-dev sigfd-tools sigfd-dkms"
note() { printf 'deb-check: %s\n' "$*" >&2; }
die() { note "$*"; exit 1; }

[ "$(id -u)" = 0 ] || die "installs packages: run as root"
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }
for p in $pkgs; do
	! installed "$p" || die "$p is installed already: remove it first (apt-get purge $pkgs)"
done

# What the build (debian/control's Build-Depends), lintian, DKMS and the
# CMake consumer need.
need="build-essential dpkg-dev debhelper dh-dkms pkg-config mandoc jq fakeroot lintian dkms kmod linux-headers-cloud-amd64 cmake"
missing=
for p in $need; do installed "$p" || missing="$missing $p"; done
if [ -n "$missing" ]; then
	note "installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
dpkg-checkbuilddeps || die "debian/control's Build-Depends are not all installed"
# Debian 12's cloud kernel headers: the ABI the metapackage depends on.
kver=$(dpkg-query -W -f='${Depends}' linux-headers-cloud-amd64 |
	sed -n 's/.*linux-headers-\([0-9][^ ,]*-cloud-amd64\).*/\1/p')
[ -f "/usr/src/linux-headers-$kver/Makefile" ] || die "no headers for '$kver'"

version=$(sed -n '1s/^sigfd (\([^)]*\)).*/\1/p' debian/changelog)
upstream=${version%%-*}
out=${DEB_CHECK_DIR:-$(mktemp -d)}
mkdir -p "$out"
case $out in /*) ;; *) out=$top/$out ;; esac
cleanup() {
	rc=$?
	for p in $pkgs; do
		if installed "$p" || dpkg-query -W "$p" >/dev/null 2>&1; then
			apt-get purge -y -qq $pkgs >/dev/null 2>&1 || dpkg --purge $pkgs >/dev/null 2>&1 || true
			break
		fi
	done
	[ -n "${DEB_CHECK_KEEP:-}" ] || rm -rf "$out"
	exit $rc
}
trap cleanup EXIT
t0=$(date +%s)
step() { note "$(( $(date +%s) - t0 ))s: $*"; }

# 1. Build, in a copy holding exactly the source tree (no build/).
step "dpkg-buildpackage -us -uc (sigfd $version)"
src=$out/sigfd-$upstream
mkdir -p "$src"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -co --exclude-standard | tar -cf - -T - | tar -xf - -C "$src"
else
	tar -cf - --exclude=./build --exclude=./.git . | tar -xf - -C "$src"
fi
(cd "$src" && dpkg-buildpackage -us -uc) >"$out/build.log" 2>&1 ||
	{ tail -n 60 "$out/build.log"; die "dpkg-buildpackage failed (log: $out/build.log)"; }
grep -E '^([0-9]+ passed|[0-9]+ SKIPPED|SKIPPED )' "$out/build.log" | sed 's/^/  suite: /' >&2 || true

# 2. Lintian: every tag shown, errors fail.
step "lintian"
changes=$out/sigfd_${version}_$(dpkg --print-architecture).changes
lint_rc=0
lintian --fail-on error --pedantic "$changes" >"$out/lintian.log" 2>&1 || lint_rc=$?
grep -v 'running with root privileges' "$out/lintian.log" >&2 || true
[ "$lint_rc" = 0 ] || die "lintian reports errors (exit $lint_rc)"

# 3. What each package holds.
step "package contents"
arch=$(dpkg --print-architecture)
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
has() { # has PACKAGE PATH...
	deb=$(ls "$out/$1"_"$version"_*.deb)
	list=$(dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|')
	shift
	for f in "$@"; do
		echo "$list" | grep -qx "$f" || die "$(basename "$deb") lacks $f"
	done
}
has libsigfd0 "/usr/lib/$ma/libsigfd.so.0" "/usr/lib/$ma/libsigfd.so.$upstream"
has libsigfd-dev /usr/include/sigfd.h "/usr/lib/$ma/libsigfd.a" "/usr/lib/$ma/libsigfd.so" \
	"/usr/lib/$ma/pkgconfig/sigfd.pc" "/usr/lib/$ma/cmake/sigfd/sigfdConfig.cmake" \
	"/usr/lib/$ma/cmake/sigfd/sigfdConfigVersion.cmake" /usr/share/man/man3/sigfd.3.gz /usr/share/man/man3/sigfd_setmask.3.gz
has sigfd-tools /usr/bin/sigfd-watch /usr/bin/sigfd-send /usr/share/man/man1/sigfd-watch.1.gz
has sigfd-dkms "/usr/src/sigfd-$upstream/sigfd.c" "/usr/src/sigfd-$upstream/sigfd_uapi.h" \
	"/usr/src/sigfd-$upstream/Kbuild" "/usr/src/sigfd-$upstream/dkms.conf"

# 4. Install them all, as a user would.
step "install"
debs=
for p in $pkgs; do debs="$debs $(ls "$out/$p"_"$version"_*.deb)"; done
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $debs >"$out/install.log" 2>&1 ||
	{ cat "$out/install.log"; die "the packages do not install"; }
for p in $pkgs; do installed "$p" || die "$p is not installed"; done
deps=$(dpkg-query -W -f='${Depends}' sigfd-tools)
case $deps in *libsigfd0*) ;; *) die "sigfd-tools does not depend on libsigfd0: $deps" ;; esac

# 5. Used as a user would, with nothing but the packages: /usr/local, which
# cc, pkg-config, ld.so and man search first, hidden under an empty tmpfs in
# a mount namespace of this step's own, so that a `make install` copy there
# is not what gets tested (debian/deb-use.sh).
step "the tools, the man pages and the README example, against the packages only"
unshare --mount --propagation private sh -c 'mount -t tmpfs -o mode=755 tmpfs /usr/local && exec sh debian/deb-use.sh "$@"' \
	sh "$out" "$upstream" "$ma" || die "using the installed packages failed"

# 6. DKMS: the module against Debian 12's cloud kernel headers.
step "dkms build -k $kver"
dkms build -m sigfd -v "$upstream" -k "$kver" --force >"$out/dkms.log" 2>&1 ||
	{ cat "$out/dkms.log"; cat "/var/lib/dkms/sigfd/$upstream/build/make.log" 2>/dev/null; die "dkms build failed"; }
# DKMS keeps no build log on success; the sources it built are kmod/'s own,
# whose build the kernel-module tier of make check fails on any warning.
for f in sigfd.c sigfd_uapi.h Kbuild; do
	cmp -s "kmod/$f" "/usr/src/sigfd-$upstream/$f" || die "/usr/src/sigfd-$upstream/$f differs from kmod/$f"
done
ko=$(ls "/var/lib/dkms/sigfd/$upstream/$kver"/*/module/sigfd.ko* 2>/dev/null | head -n 1)
[ -n "$ko" ] || die "dkms built no sigfd.ko for $kver"
vermagic=$(modinfo -F vermagic "$ko")
case $vermagic in "$kver "*) ;; *) die "sigfd.ko's vermagic is '$vermagic', not $kver" ;; esac
dkms status -m sigfd -v "$upstream" -k "$kver" | grep -q "sigfd/$upstream, $kver" || die "dkms status does not list the build"

# 7. Remove: nothing of them may stay.
step "purge"
apt-get purge -y -qq $pkgs >"$out/purge.log" 2>&1 || { cat "$out/purge.log"; die "purge failed"; }
for p in $pkgs; do ! installed "$p" || die "$p still installed"; done
for f in /usr/include/sigfd.h "/usr/lib/$ma/libsigfd.so.0" /usr/bin/sigfd-watch "/usr/src/sigfd-$upstream" \
	"/var/lib/dkms/sigfd" "/lib/modules/$kver/updates/dkms/sigfd.ko"; do
	[ ! -e "$f" ] || die "$f is left after purge"
done
step "done: built, lintian-clean, installed, used, built through DKMS for $kver, removed"
