#!/bin/sh
# SPDX-License-Identifier: MIT
# build-independent: drives the Makefile in a build directory of its own
# CPPFLAGS reaches the compiler; the same flags again rebuild nothing; other
# CPPFLAGS, CFLAGS or LDFLAGS rebuild what they change (the objects, or the
# links), in a build directory of the test's own.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
b=$tmp/b
# The outer make's flags (-s above all) are not this test's.
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory B="$b" "$@" lib 2>&1; }
newer() { find "$b/obj/src" "$b/lib" -name "$1" -newer "$tmp/ref" | wc -l; }
fail() { echo "$*"; exit 1; }
objs=$(ls src/*.c | wc -l)

out=$(mk CPPFLAGS=-DSIGFD_FLAGS_TEST=1)
echo "$out" | grep -q -- '-DSIGFD_FLAGS_TEST=1.*-c -o' || { echo "$out"; fail "CPPFLAGS did not reach the compiler"; }
touch "$tmp/ref"
mk CPPFLAGS=-DSIGFD_FLAGS_TEST=1 >/dev/null
[ "$(newer '*.o')" = 0 ] || fail "the same flags rebuilt objects"
mk CPPFLAGS=-DSIGFD_FLAGS_TEST=2 >/dev/null
[ "$(newer "*.o")" = "$objs" ] || fail "new CPPFLAGS did not rebuild every object"
touch "$tmp/ref"
mk CPPFLAGS=-DSIGFD_FLAGS_TEST=2 CFLAGS='-O1 -g' >/dev/null
[ "$(newer "*.o")" = "$objs" ] || fail "new CFLAGS did not rebuild every object"
touch "$tmp/ref"
mk CPPFLAGS=-DSIGFD_FLAGS_TEST=2 CFLAGS='-O1 -g' LDFLAGS=-Wl,-O1 >/dev/null
[ "$(newer 'libsigfd.so.*')" -ge 1 ] || fail "new LDFLAGS did not relink libsigfd.so"
