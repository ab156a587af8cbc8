#!/bin/sh
# SPDX-License-Identifier: MIT
# Every C example in every section-3 manual page compiles warning-free with
# -std=c11 -pedantic and nothing defined on the command line (a reader
# copies it as it stands): a whole program is compiled and linked against
# the library; the record layout is compiled and checked at 128 bytes; a
# fragment is compiled inside a function that declares what its text
# assumes (pid, status, mask, argv). Issue 27: sigfd(3)'s EXAMPLE did not
# build with -std=c11 (no _POSIX_C_SOURCE). Blocks that are not C (a line
# of output) are skipped, and counted.
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cc=${CC:-cc}
flags="${TEST_CFLAGS:-} -std=c11 -pedantic -Wall -Wextra -Werror -Iinclude"
programs=0 layouts=0 fragments=0 text=0

# The roff escapes an example uses, back to C.
unescape() {
	sed -e 's/\\-/-/g' -e 's/\\e/\\/g' -e "s/\\\\(aq/'/g" -e 's/\\(dq/"/g' -e 's/\\&//g'
}

for page in docs/*.3; do
	n=$(grep -c '^\.EX' "$page" || true)
	i=1
	while [ "$i" -le "$n" ]; do
		awk -v want="$i" '/^\.EX/ { k++; on = (k == want); next } /^\.EE/ { on = 0 } on' "$page" |
			unescape >"$dir/block"
		name="$(basename "$page") example $i"
		if grep -q 'main(' "$dir/block"; then
			cp "$dir/block" "$dir/prog.c"
			# Compiled without -pthread, whose _REENTRANT would stand in
			# for the feature macros the program must define itself.
			# shellcheck disable=SC2086 # flags is a list
			$cc $flags -c -o "$dir/prog.o" "$dir/prog.c" &&
				$cc ${TEST_CFLAGS:-} -o "$dir/prog" "$dir/prog.o" "$BUILD/lib/libsigfd.a" -pthread ||
				{ echo "$name: the program does not build" >&2; exit 1; }
			programs=$((programs + 1))
		elif grep -q '^struct sigfd_siginfo {' "$dir/block"; then
			{
				echo '#include <stdint.h>'
				cat "$dir/block"
				echo '_Static_assert(sizeof(struct sigfd_siginfo) == 128, "128 bytes");'
			} >"$dir/layout.c"
			# shellcheck disable=SC2086
			$cc $flags -c -o "$dir/layout.o" "$dir/layout.c" ||
				{ echo "$name: the record layout does not build" >&2; exit 1; }
			layouts=$((layouts + 1))
		elif grep -q '[;{]' "$dir/block"; then
			{
				printf '%s\n' '#define _POSIX_C_SOURCE 200809L' '#define _DEFAULT_SOURCE' \
					'#include <err.h>' '#include <signal.h>' '#include <spawn.h>' \
					'#include <stdio.h>' '#include <sys/wait.h>' '#include <unistd.h>' \
					'#include <sigfd.h>' 'extern char **environ;' \
					'void fragment(char **argv, sigset_t mask);' \
					'void fragment(char **argv, sigset_t mask)' '{' \
					'	pid_t pid = 0; int status = 0;' \
					'	(void)argv; (void)mask; (void)pid; (void)status;' '	{'
				cat "$dir/block"
				printf '%s\n' '	}' '}'
			} >"$dir/fragment.c"
			# shellcheck disable=SC2086
			$cc $flags -c -o "$dir/fragment.o" "$dir/fragment.c" ||
				{ echo "$name: the fragment does not build" >&2; cat -n "$dir/fragment.c" >&2; exit 1; }
			fragments=$((fragments + 1))
		else
			text=$((text + 1))
		fi
		i=$((i + 1))
	done
done
[ $programs -gt 0 ] || { echo "no example program found" >&2; exit 1; }
echo "$programs programs, $layouts record layouts and $fragments fragments built; $text blocks of output text"
