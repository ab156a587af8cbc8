#!/bin/sh
# SPDX-License-Identifier: MIT
# Only the public API is global in libsigfd.a and exported by libsigfd.so
# (and listed in debian/libsigfd0.symbols):
# a program with its own share_lock, share_serve, ... (the library's
# internal names) links statically beside the library, and both work.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Exactly the functions <sigfd.h> declares.
want=$(sed -n 's/^int \(sigfd[a-z_]*\)(.*/\1/p' include/sigfd.h | sort | tr '\n' ' ' | sed 's/ $//')
[ -n "$want" ] || { echo "no functions found in include/sigfd.h"; exit 1; }

got=$(nm -g --defined-only "$BUILD/lib/libsigfd.a" | awk 'NF == 3 { print $3 }' | sort | tr '\n' ' ')
[ "$got" = "$want " ] || { echo "libsigfd.a: global symbols are: $got(want: $want)"; exit 1; }
# _init and _fini are the C runtime's (musl's crti.o exports them), not ours.
got=$(nm -D --defined-only "$BUILD/lib/libsigfd.so" | awk 'NF == 3 && $3 != "_init" && $3 != "_fini" { print $3 }' |
	sort | tr '\n' ' ')
[ "$got" = "$want " ] || { echo "libsigfd.so: exported symbols are: $got(want: $want)"; exit 1; }
# The package's symbols file names them all: dpkg-gensymbols -c4 (debian/rules)
# fails the package build on any difference.
got=$(sed -n 's/^ \([A-Za-z0-9_]*\)@Base .*/\1/p' debian/libsigfd0.symbols | sort | tr '\n' ' ')
[ "$got" = "$want " ] || { echo "debian/libsigfd0.symbols lists: $got(want: $want)"; exit 1; }

# Every internal name the library has, defined again by the program.
internal=$(nm "$BUILD/lib/libsigfd.a" | awk '$2 ~ /^[tdbr]$/ && $3 ~ /^(share_|sigfd_)[A-Za-z0-9_]*$/ { print $3 }' | sort -u)
for name in share_lock share_serve share_sync share_ctx_open share_ctx_deliver; do
	echo "$internal" | grep -qx "$name" || { echo "$name is no longer in the library: update this test"; exit 1; }
done
{
	echo '#include <sigfd.h>'
	echo '#include <unistd.h>'
	for name in $internal; do echo "int $name = 1;"; done
	echo 'int main(void)'
	echo '{'
	echo '	sigset_t s;'
	echo '	sigemptyset(&s);'
	echo '	sigaddset(&s, SIGUSR1);'
	echo '	sigprocmask(SIG_BLOCK, &s, NULL);'
	echo '	int fd = sigfd(&s, SIGFD_SHARE | SIGFD_CLOEXEC);'
	echo '	if (fd < 0 || sigfd_setmask(fd, &s) != 0 || close(fd) != 0)'
	echo '		return 1;'
	for name in $internal; do echo "	if ($name != 1) return 2;"; done
	echo '	return 0;'
	echo '}'
} >"$tmp/own.c"
${CC:-cc} ${TEST_CFLAGS:-} -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -Iinclude -o "$tmp/own" "$tmp/own.c" \
	"$BUILD/lib/libsigfd.a" -pthread || { echo "a program defining the library's internal names does not link"; exit 1; }
SIGFD_BACKEND=user "$tmp/own" || { echo "the program failed (exit $?)"; exit 1; }
