#!/bin/sh
# SPDX-License-Identifier: MIT
# build-independent: reads the kernel series
# The 6.12 and 7.3 copies of the series differ only where
# kernel/series-versions.diff records that the kernels differ
# (kernel/series-versions.sh --check), and the check finds a copy that
# drifted: a line added to one copy's patch is named.
set -eu
cd "$(dirname "$0")/../.."
sh kernel/series-versions.sh --check

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/kernel"
cp -r kernel/series-versions.sh kernel/series-versions.diff kernel/6.12 kernel/7.3 "$tmp/kernel/"
p=$(ls "$tmp"/kernel/7.3/0006-*.patch)
sed '0,/^+#include/s//+#include <linux\/drifted.h>\n&/' "$p" >"$tmp/drifted" && mv "$tmp/drifted" "$p"
if out=$(sh "$tmp/kernel/series-versions.sh" --check 2>&1); then
	echo "a drifted copy passed the check"
	exit 1
fi
case $out in
*"kernel/*/0006-*.patch: the 6.12 and 7.3 copies differ"*) ;;
*) echo "the check did not name the drifted patch: $out"; exit 1 ;;
esac
echo "the two copies of the series differ only where the kernels do; a drifted copy is named"
