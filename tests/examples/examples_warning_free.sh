#!/bin/sh
# SPDX-License-Identifier: MIT
# The README's example and every example in examples/ build warning-free as
# a user would build them: with -std=c11 -pedantic -Wall -Wextra, and with
# the compiler's default standard and -Wall -Wextra (warnings as errors).
# The event-loop examples are checked by their own tests, with their
# libraries' flags (tests/examples/example_*_loop.sh).
set -eu
# shellcheck source=tests/examples/example_loops.inc
. "$(dirname "$0")/example_loops.inc"
# shellcheck source=tests/examples/readme_example.inc
. "$(dirname "$0")/readme_example.inc"
readme_example_source "$loop_dir/readme.c" || exit 1
warning_free "$loop_dir/readme.c"
apart=$(sed -n 's/^event_loop_example \([^ ]*\) .*/\1/p' tests/examples/example_*_loop.sh)
n=0
for src in examples/*.c; do
	name=$(basename "$src" .c)
	echo "$apart" | grep -qx "$name" && continue
	warning_free "$src"
	n=$((n + 1))
done
[ "$n" -ge 5 ] || fail "only $n examples checked"
