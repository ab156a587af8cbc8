#!/bin/sh
# SPDX-License-Identifier: MIT
# make install puts the header, both libraries (with soname), sigfd.pc, the
# tools and the man pages where the install's variables say; a program builds
# against the installed copy through pkg-config alone and runs; make
# uninstall removes it all. Two installs from one build, one staged with
# DESTDIR and one in place with its own LIBDIR and INCDIR, each get a
# sigfd.pc naming their own directories (relative to ${prefix} when under it).
# make uninstall also removes the directories make install created, once
# empty, and keeps those that were there before.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v pkg-config >/dev/null 2>&1 || { echo "SKIPPED: pkg-config is not installed (apt-get install pkg-config)"; exit 77; }
stamp_before=$(cat "$BUILD/flags")
# shellcheck source=tests/build/install_env.inc
. "$(dirname "$0")/install_env.inc"

write_use_c "$tmp/use.c"

fail() { echo "$*"; exit 1; }

# check_install DESTDIR PCDIR PREFIX LIBDIR INCDIR WANT_LIBDIR WANT_INCDIR
# DESTDIR is empty for an install in place.
check_install() {
	root=$1 pcdir=$2 prefix=$3 libdir=$4 incdir=$5 want_lib=$6 want_inc=$7
	for f in "$incdir/sigfd.h" "$libdir/libsigfd.a" "$libdir/libsigfd.so" "$libdir/libsigfd.so.0" \
		"$pcdir/sigfd.pc" "$prefix/bin/sigfd-watch" "$prefix/bin/sigfd-send" \
		"$prefix/share/man/man3/sigfd.3" "$prefix/share/man/man3/sigfd_setmask.3" \
		"$prefix/share/man/man1/sigfd-watch.1"; do
		[ -e "$root$f" ] || fail "not installed: $root$f"
	done
	objdump -p "$root$libdir/libsigfd.so" | grep -q 'SONAME *libsigfd.so.0' || fail "no soname"
	pc=$root$pcdir/sigfd.pc
	grep -qx "prefix=$prefix" "$pc" || { cat "$pc"; fail "sigfd.pc: prefix is not $prefix"; }
	grep -qxF "libdir=$want_lib" "$pc" || { cat "$pc"; fail "sigfd.pc: libdir is not $want_lib"; }
	grep -qxF "includedir=$want_inc" "$pc" || { cat "$pc"; fail "sigfd.pc: includedir is not $want_inc"; }

	# As a user would: nothing but what pkg-config says. A staged install
	# is found through the sysroot, which pkg-config puts before -I and -L.
	flags=$(PKG_CONFIG_LIBDIR=$root$pcdir PKG_CONFIG_SYSROOT_DIR=$root pkg-config --cflags --libs sigfd)
	case $flags in *"-I$root$incdir"*"-L$root$libdir"*) ;; *) fail "pkg-config says: $flags" ;; esac
	${CC:-cc} ${TEST_CFLAGS:-} -o "$tmp/use" "$tmp/use.c" $flags -Wl,-rpath,"$root$libdir"
	# readelf, not ldd: glibc's ldd cannot load a musl program.
	readelf -d "$tmp/use" | grep -q 'NEEDED.*\[libsigfd\.so\.0\]' || fail "not linked against libsigfd.so.0"
	"$tmp/use" || fail "the program built against $root$prefix failed"
	# Static: the archive and Libs.private.
	sflags=$(PKG_CONFIG_LIBDIR=$root$pcdir PKG_CONFIG_SYSROOT_DIR=$root pkg-config --static --cflags sigfd)
	${CC:-cc} ${TEST_CFLAGS:-} -o "$tmp/use-static" "$tmp/use.c" $sflags "$root$libdir/libsigfd.a" \
		$(PKG_CONFIG_LIBDIR=$root$pcdir pkg-config --static --libs-only-other sigfd)
	"$tmp/use-static" || fail "the program built against $root$libdir/libsigfd.a failed"
}

# 1: staged, as a package build does, default LIBDIR and INCDIR.
dest=$tmp/dest
make -s install B="$BUILD" DESTDIR="$dest" PREFIX=/opt/sigfd-a >/dev/null
check_install "$dest" /opt/sigfd-a/lib/pkgconfig /opt/sigfd-a /opt/sigfd-a/lib \
	/opt/sigfd-a/include '${prefix}/lib' '${prefix}/include'

# 2: in place, another prefix, a multiarch LIBDIR and an INCDIR outside it;
# its bin/ is there before (empty) and is kept.
p=$tmp/b
mkdir -p "$p/bin"
vars="PREFIX=$p LIBDIR=$p/lib/x86_64-linux-gnu INCDIR=$tmp/inc"
# shellcheck disable=SC2086 # vars is a list of assignments
make -s install B="$BUILD" $vars >/dev/null
check_install "" "$p/lib/x86_64-linux-gnu/pkgconfig" "$p" "$p/lib/x86_64-linux-gnu" "$tmp/inc" \
	'${prefix}/lib/x86_64-linux-gnu' "$tmp/inc"
# The first install's sigfd.pc was not touched by the second.
grep -qx "prefix=/opt/sigfd-a" "$dest/opt/sigfd-a/lib/pkgconfig/sigfd.pc" || fail "first sigfd.pc changed"

[ "$(cat "$BUILD/flags")" = "$stamp_before" ] || fail "make install rebuilt $BUILD with other flags"

make -s uninstall B="$BUILD" DESTDIR="$dest" PREFIX=/opt/sigfd-a >/dev/null
# shellcheck disable=SC2086
make -s uninstall B="$BUILD" $vars >/dev/null
left=$(find "$dest" "$p" "$tmp/inc" 2>/dev/null | sort | tr '\n' ' ')
want=$(printf '%s\n' "$dest" "$p" "$p/bin" | sort | tr '\n' ' ')
[ "$left" = "$want" ] || { echo "after uninstall: $left(want: $want)"; exit 1; }
