#!/bin/sh
# SPDX-License-Identifier: MIT
# A CMake project finds an installed sigfd with find_package(sigfd 0.1) and
# builds against it: sigfd::sigfd is libsigfd.so.0, sigfd::sigfd-static the
# archive, and with SIGFD_USE_STATIC_LIBS on sigfd::sigfd is the archive;
# sigfd 1.0 is not found. Two installs, as tests/build/install.sh makes them: one
# staged with DESTDIR (found where it lies: the config file finds its prefix
# from its own place) and one in place with a multiarch LIBDIR and an INCDIR
# outside the prefix (found through CMAKE_PREFIX_PATH, as CMake searches
# lib/<arch>/cmake). Debian's cmake.
set -eu
command -v cmake >/dev/null 2>&1 || { echo "SKIPPED: cmake is not installed (apt-get install cmake)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/build/install_env.inc
. "$(dirname "$0")/install_env.inc"
fail() { echo "$*"; exit 1; }
version=$(cat "$(dirname "$0")/../../VERSION")

mkdir "$tmp/src"
write_use_c "$tmp/src/use.c"
cat >"$tmp/src/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.13)
project(use_sigfd C)
find_package(sigfd 1.0 QUIET)
if(sigfd_FOUND)
  message(FATAL_ERROR "sigfd 1.0 found: ${sigfd_VERSION}")
endif()
find_package(sigfd 0.1 REQUIRED)
message(STATUS "sigfd ${sigfd_VERSION} in ${sigfd_DIR}")
add_executable(use_default use.c)
target_link_libraries(use_default PRIVATE sigfd::sigfd)
add_executable(use_static use.c)
target_link_libraries(use_static PRIVATE sigfd::sigfd-static)
CMAKE

# consume NAME CMAKE-ARGS...: configure, build, run both programs; how each
# is linked is left in $tmp/NAME.default and $tmp/NAME.static.
consume() {
	name=$1
	shift
	b=$tmp/build-$name
	CC=${CC:-cc} cmake -S "$tmp/src" -B "$b" -DCMAKE_C_FLAGS="${TEST_CFLAGS:-}" \
		-DCMAKE_EXE_LINKER_FLAGS="${TEST_CFLAGS:-}" "$@" >"$tmp/$name.log" 2>&1 &&
		cmake --build "$b" >>"$tmp/$name.log" 2>&1 || { cat "$tmp/$name.log"; fail "$name: the consumer does not build"; }
	for kind in default static; do
		"$b/use_$kind" || fail "$name: use_$kind failed"
		# readelf, not ldd: glibc's ldd cannot load a musl program.
		if readelf -d "$b/use_$kind" | grep -q 'NEEDED.*\[libsigfd\.so\.0\]'; then
			echo shared >"$tmp/$name.$kind"
		else
			echo static >"$tmp/$name.$kind"
		fi
	done
}
want() { # want NAME DEFAULT STATIC
	[ "$(cat "$tmp/$1.default")" = "$2" ] || fail "$1: sigfd::sigfd is $(cat "$tmp/$1.default"), not $2"
	[ "$(cat "$tmp/$1.static")" = "$3" ] || fail "$1: sigfd::sigfd-static is $(cat "$tmp/$1.static"), not $3"
}

# 1: staged.
dest=$tmp/dest
make -s install B="$BUILD" DESTDIR="$dest" PREFIX=/opt/sigfd-c >/dev/null
consume staged -DCMAKE_PREFIX_PATH="$dest/opt/sigfd-c"
grep -q "sigfd $version in $dest/opt/sigfd-c/lib/cmake/sigfd" "$tmp/staged.log" || { cat "$tmp/staged.log"; fail "staged: found elsewhere"; }
want staged shared static
consume staged-static -DCMAKE_PREFIX_PATH="$dest/opt/sigfd-c" -DSIGFD_USE_STATIC_LIBS=ON
want staged-static static static

# 2: in place, multiarch LIBDIR, INCDIR outside the prefix.
p=$tmp/p
arch=$(${CC:-cc} -print-multiarch 2>/dev/null || true)
[ -n "$arch" ] || arch=x86_64-linux-gnu
vars="PREFIX=$p LIBDIR=$p/lib/$arch INCDIR=$tmp/inc"
# shellcheck disable=SC2086 # vars is a list of assignments
make -s install B="$BUILD" $vars >/dev/null
grep -qx "set(_sigfd_incdir \"$tmp/inc\")" "$p/lib/$arch/cmake/sigfd/sigfdConfig.cmake" ||
	fail "sigfdConfig.cmake does not name INCDIR $tmp/inc"
consume inplace -DCMAKE_PREFIX_PATH="$p" -DCMAKE_LIBRARY_ARCHITECTURE="$arch"
grep -q "sigfd $version in $p/lib/$arch/cmake/sigfd" "$tmp/inplace.log" || { cat "$tmp/inplace.log"; fail "in place: found elsewhere"; }
want inplace shared static

make -s uninstall B="$BUILD" DESTDIR="$dest" PREFIX=/opt/sigfd-c >/dev/null
# shellcheck disable=SC2086
make -s uninstall B="$BUILD" $vars >/dev/null
left=$(find "$dest" "$p" "$tmp/inc" -type f -o -type l 2>/dev/null || :)
[ -z "$left" ] || { echo "left after uninstall:"; echo "$left"; exit 1; }
