#!/bin/sh
# SPDX-License-Identifier: MIT
# make install puts the header, both libraries (with soname), sigfd.pc, the
# tools and the man pages under PREFIX; a program builds against the
# installed copy through pkg-config and runs; make uninstall removes it all.
set -eu
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
prefix=/opt/sigfd-test
make -s install B="$BUILD" DESTDIR="$dest" PREFIX=$prefix >/dev/null
root=$dest$prefix
for f in include/sigfd.h lib/libsigfd.a lib/libsigfd.so lib/libsigfd.so.0 lib/pkgconfig/sigfd.pc \
	bin/sigfd-watch bin/sigfd-send share/man/man3/sigfd.3 share/man/man1/sigfd-watch.1; do
	[ -e "$root/$f" ] || { echo "not installed: $f"; exit 1; }
done
objdump -p "$root/lib/libsigfd.so" | grep -q 'SONAME *libsigfd.so.0' || { echo "no soname"; exit 1; }
grep -qx "prefix=$prefix" "$root/lib/pkgconfig/sigfd.pc" || { echo "sigfd.pc names the wrong prefix"; exit 1; }

# Build a program against the installed files, as a user would.
cat >"$dest/use.c" <<'C'
#include <sigfd.h>
#include <unistd.h>
int main(void)
{
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	int fd = sigfd(&s, SIGFD_CLOEXEC);
	return fd >= 0 && close(fd) == 0 ? 0 : 1;
}
C
flags=$(sed -e "s|^prefix=.*|prefix=$root|" -e "s|$prefix|$root|g" "$root/lib/pkgconfig/sigfd.pc" >"$dest/sigfd.pc" &&
	PKG_CONFIG_PATH=$dest pkg-config --cflags --libs sigfd 2>/dev/null) ||
	flags="-I$root/include -L$root/lib -lsigfd"
${CC:-cc} ${TEST_CFLAGS:-} -o "$dest/use" "$dest/use.c" $flags -Wl,-rpath,"$root/lib"
"$dest/use"

make -s uninstall B="$BUILD" DESTDIR="$dest" PREFIX=$prefix >/dev/null
left=$(find "$root" -type f -o -type l)
[ -z "$left" ] || { echo "left after uninstall:"; echo "$left"; exit 1; }
