#!/bin/sh
# SPDX-License-Identifier: MIT
# build-independent: reads the kernel series
# The series' selftest has one source, kernel/selftest/: both posted
# copies (kernel/6.12/0008-*, kernel/7.3/0008-*) carry its files and its
# message exactly (kernel/selftest.sh --check), and the check itself finds
# a copy that drifted: a line added to one patch's program is named.
set -eu
cd "$(dirname "$0")/../.."
sh kernel/selftest.sh --check

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/kernel/7.3"
cp kernel/selftest.sh "$tmp/kernel/"
cp -r kernel/selftest "$tmp/kernel/"
sed '/^+TEST_HARNESS_MAIN$/i +/* drifted */' kernel/7.3/0008-*.patch \
	>"$tmp/kernel/7.3/0008-drifted.patch"
if out=$(sh "$tmp/kernel/selftest.sh" --check 2>&1); then
	echo "a drifted copy passed the check"
	exit 1
fi
case $out in
*"0008-drifted.patch: tools/testing/selftests/signalfd/signalfd_creator_test.c differs"*) ;;
*) echo "the check did not name the drifted file: $out"; exit 1 ;;
esac
echo "kernel/selftest/ is the one source of both copies; a drifted copy is named"
