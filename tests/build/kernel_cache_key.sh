#!/bin/sh
# SPDX-License-Identifier: MIT
# build-independent: reads copies of kernel/
# The kernel cache's key covers what the kernel build reads, and only
# that: a change to the selftest or to a commit message keeps the key
# (each guest run checks the series with checkpatch and builds the
# selftest itself), a change to the kernel's code gives a new key. Keys
# from `sh kernel/run.sh --status` on copies of kernel/, with an empty
# cache of their own.
set -eu
cd "$(dirname "$0")/../.."

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The key names the source package's version: apt's, or where apt has no
# lists, that of the newest .deb in the cache. A stand-in .deb there lets
# the test run without apt lists; it is never unpacked.
mkdir -p "$tmp/pkg/DEBIAN" "$tmp/cache/dl"
printf '%s\n' 'Package: linux-source-6.12' 'Version: 0-stand-in' 'Architecture: all' \
	'Maintainer: sigfd tests <tests@invalid>' 'Description: stand-in' >"$tmp/pkg/DEBIAN/control"
dpkg-deb --build "$tmp/pkg" "$tmp/cache/dl/linux-source-6.12_0-stand-in_all.deb" >/dev/null

# The key of the 6.12 series in copy $1.
key_of() {
	out=$(SIGFD_KERNEL_CACHE=$tmp/cache sh "$1/kernel/run.sh" --status) || {
		echo "kernel/run.sh --status failed in $1"
		exit 1
	}
	echo "$out" | cut -d' ' -f2
}

copy() {
	mkdir -p "$tmp/$1"
	cp -r kernel "$tmp/$1/"
}

copy base
base=$(key_of "$tmp/base")

copy selftest
sed -i '/^+TEST_HARNESS_MAIN$/i +/* edited */' "$tmp"/selftest/kernel/6.12/0008-*.patch
[ "$(key_of "$tmp/selftest")" = "$base" ] || { echo "editing the selftest changed the key"; exit 1; }

copy message
sed -i 's/^Subject: .*/& (reworded)/' "$tmp"/message/kernel/6.12/0004-*.patch
[ "$(key_of "$tmp/message")" = "$base" ] || { echo "editing a commit message changed the key"; exit 1; }

copy code
awk '/^diff --git a\/fs\/signalfd.c/ { f = 1 } f && /^\+.*;$/ && !done { sub(/;$/, "; "); done = 1 } 1' \
	"$tmp"/code/kernel/6.12/0004-*.patch >"$tmp/0004" &&
	cp "$tmp/0004" "$tmp"/code/kernel/6.12/0004-*.patch
cmp -s "$tmp"/code/kernel/6.12/0004-*.patch kernel/6.12/0004-*.patch && { echo "the code was not edited"; exit 1; }
[ "$(key_of "$tmp/code")" != "$base" ] || { echo "editing fs/signalfd.c kept the key"; exit 1; }

echo "the key ($base) is kept across selftest and message edits, changed by a code edit"
