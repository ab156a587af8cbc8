#!/bin/sh
# SPDX-License-Identifier: MIT
# make coverage without gcovr fails at once, naming gcovr and the package,
# before it runs the suite (which it did for minutes, then failed without a
# word). Not from inside make coverage's own run of the suite.
[ -z "${SIGFD_COVERAGE_RUN:-}" ] || { echo "SKIPPED: inside make coverage"; exit 77; }
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0
SIGFD_COVERAGE_RUN=1 make -s --no-print-directory coverage B="$BUILD" GCOVR_BIN=gcovr-absent-here \
	COV_B="$tmp/cov" >"$tmp/out" 2>&1 || rc=$?
[ $rc -ne 0 ] || { cat "$tmp/out"; echo "make coverage succeeded without gcovr"; exit 1; }
grep -q 'gcovr-absent-here not found.*apt-get install gcovr' "$tmp/out" || { cat "$tmp/out"; echo "no clear message"; exit 1; }
[ ! -e "$tmp/cov/suite.log" ] || { echo "the suite ran before gcovr was asked for"; exit 1; }
