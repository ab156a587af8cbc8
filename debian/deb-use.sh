#!/bin/sh
# SPDX-License-Identifier: MIT
# make deb-check's step 5 (debian/deb-check.sh runs it with /usr/local
# hidden): the installed packages used as a user would, each thing checked
# to come from them. deb-use.sh OUT UPSTREAM-VERSION MULTIARCH
set -eu
out=$1 upstream=$2 ma=$3
die() { printf 'deb-check: %s\n' "$*" >&2; exit 1; }
lib=$(realpath "/usr/lib/$ma/libsigfd.so.0")
# uses_packaged_lib PROGRAM: it loads the packaged libsigfd.so.0 (/lib is
# /usr/lib on Debian 12: the files are compared, not the names).
uses_packaged_lib() {
	linked=$(ldd "$1" | sed -n 's/^[[:space:]]*libsigfd\.so\.0 => \([^ ]*\) .*/\1/p')
	[ -n "$linked" ] && [ "$(realpath "$linked")" = "$lib" ] ||
		{ ldd "$1"; die "$1 does not load the packaged libsigfd.so.0"; }
}

case $(man -w sigfd_setmask 2>/dev/null) in
/usr/share/man/man3/sigfd_setmask.3*) ;;
*) die "man finds sigfd_setmask(3) at '$(man -w sigfd_setmask 2>&1)', not in /usr/share/man" ;;
esac
[ "$(command -v sigfd-watch)" = /usr/bin/sigfd-watch ] || die "sigfd-watch is '$(command -v sigfd-watch)'"
sigfd-watch --help >/dev/null || die "sigfd-watch --help fails"
uses_packaged_lib /usr/bin/sigfd-watch
sigfd-send -0 $$ || die "sigfd-send -0 fails" # (it needs no libsigfd)

# The README's example: pkg-config only, the README's own command
# (cc prog.c $(pkg-config ...)), warnings as errors.
# shellcheck source=tests/examples/readme_example.inc
. tests/examples/readme_example.inc
readme_example_source "$out/example.c" || die "no C example in README.md"
[ "$(pkg-config --modversion sigfd)" = "$upstream" ] || die "pkg-config says sigfd $(pkg-config --modversion sigfd)"
[ "$(pkg-config --variable=includedir sigfd)" = /usr/include ] || die "pkg-config's sigfd.pc is not the package's"
# shellcheck disable=SC2046
cc -Wall -Wextra -Werror -o "$out/example" "$out/example.c" $(pkg-config --cflags --libs sigfd)
uses_packaged_lib "$out/example"
readme_example_run "$out/example" "$out" || die "the README example against the packages failed"

# A CMake project: find_package(sigfd) finds the package's config by
# itself, sigfd::sigfd links the packaged libsigfd.so.0 and runs.
mkdir -p "$out/cmake"
cp "$out/example.c" "$out/cmake/example.c"
cat >"$out/cmake/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.13)
project(example C)
find_package(sigfd 0.1 REQUIRED)
message(STATUS "sigfd ${sigfd_VERSION} in ${sigfd_DIR}")
add_executable(example example.c)
target_link_libraries(example PRIVATE sigfd::sigfd)
CMAKE
cmake -S "$out/cmake" -B "$out/cmake/b" >"$out/cmake.log" 2>&1 && cmake --build "$out/cmake/b" >>"$out/cmake.log" 2>&1 ||
	{ cat "$out/cmake.log"; die "the CMake consumer does not build"; }
grep -q "sigfd $upstream in /usr/lib/$ma/cmake/sigfd" "$out/cmake.log" || { cat "$out/cmake.log"; die "CMake found another sigfd"; }
uses_packaged_lib "$out/cmake/b/example"
