#!/bin/sh
# SPDX-License-Identifier: MIT
# One version everywhere: the Makefile's VERSION is what <sigfd.h> says in
# SIGFD_VERSION_MAJOR/MINOR/PATCH, what the man pages' headers say, and the
# upstream part of debian/changelog's first entry.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
version=$(sed -n 's/^VERSION *:= *//p' Makefile)
[ -n "$version" ] || { echo "no VERSION in Makefile"; exit 1; }
cat >"$tmp/v.c" <<'C'
#include <stdio.h>
#include <sigfd.h>
int main(void)
{
	printf("%d.%d.%d\n", SIGFD_VERSION_MAJOR, SIGFD_VERSION_MINOR, SIGFD_VERSION_PATCH);
	return 0;
}
C
${CC:-cc} ${TEST_CFLAGS:-} -Iinclude -o "$tmp/v" "$tmp/v.c"
got=$("$tmp/v")
[ "$got" = "$version" ] || { echo "<sigfd.h> says $got, the Makefile $version"; exit 1; }
for page in docs/*.[0-9]; do
	grep -q '^\.so ' "$page" && continue
	grep -q "^\.TH .* \"sigfd $version\"" "$page" || { echo "$page: .TH does not say \"sigfd $version\""; exit 1; }
done
deb=$(sed -n '1s/^sigfd (\([^)-]*\).*/\1/p' debian/changelog)
[ "$deb" = "$version" ] || { echo "debian/changelog says '$deb', the Makefile $version"; exit 1; }
