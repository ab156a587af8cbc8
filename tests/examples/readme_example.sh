#!/bin/sh
# SPDX-License-Identifier: MIT
# The README's poll-loop example compiles warning-free against the library
# and does what the README says: SIGCHLD keeps it looping, SIGTERM ends it
# naming the sender's pid (tests/examples/readme_example.inc).
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=tests/examples/readme_example.inc
. "$(dirname "$0")/readme_example.inc"
readme_example_source "$dir/example.c"
# TEST_CFLAGS carries the sanitizer flags the library was built with.
${CC:-cc} ${TEST_CFLAGS:-} -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Iinclude -o "$dir/example" "$dir/example.c" \
	"$BUILD/lib/libsigfd.a" -pthread
readme_example_run "$dir/example" "$dir"
