#!/bin/sh
# SPDX-License-Identifier: MIT
# One version everywhere. The VERSION file is its one source: the build's
# tools say it (--version) and its library is named for it (the Makefile
# reads VERSION); <sigfd.h>'s SIGFD_VERSION_MAJOR/MINOR/PATCH and every man
# page's .TH line say it (tools/set-version.sh writes them); NEWS's newest
# entry is for it, and debian/changelog is what tools/news-to-changelog.sh
# makes of NEWS. No other file names it, but the places that name the
# version something first appeared in or was measured on (listed below).
set -eu
cd "$(dirname "$0")/../.."
B=${BUILD:?BUILD must name the build directory}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "$*"; exit 1; }
version=$(cat VERSION)
echo "$version" | grep -qx '[0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*' || fail "VERSION says '$version', not X.Y.Z"

for tool in sigfd-watch sigfd-send; do
	got=$("$B/bin/$tool" --version)
	[ "$got" = "$tool (sigfd) $version" ] || fail "$tool --version says '$got', VERSION $version"
done
[ -f "$B/lib/libsigfd.so.$version" ] || fail "no $B/lib/libsigfd.so.$version: the Makefile does not name the library for VERSION"

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
[ "$got" = "$version" ] || fail "<sigfd.h> says $got, VERSION $version (tools/set-version.sh $version)"
for page in docs/*.[0-9]; do
	grep -q '^\.so ' "$page" && continue
	grep -q "^\.TH .* \"sigfd $version\"" "$page" || fail "$page: .TH does not say \"sigfd $version\" (tools/set-version.sh $version)"
done

news=$(sed -n 's/^sigfd \([0-9.]*\), [0-9-]*$/\1/p' NEWS | head -n 1)
[ "$news" = "$version" ] || fail "NEWS's newest entry is for '$news', VERSION says $version"
sh tools/news-to-changelog.sh >"$tmp/changelog"
cmp -s "$tmp/changelog" debian/changelog || {
	diff -u debian/changelog "$tmp/changelog" | head -n 20
	fail "debian/changelog is not what NEWS makes (make changelog)"
}

# Anywhere else the version is written by hand. Allowed: the files above
# and the .TH lines, the symbols file (the version each symbol first
# appeared in: dpkg wants it kept), sigfd(3)'s "first appeared in", and
# docs/init-wrappers.md (the version its table was measured on). Not read:
# builds, and what a package build leaves under debian/ (installed copies,
# debhelper's generated scripts and substvars).
grep -rnwF --exclude-dir=build --exclude-dir=.git --exclude-dir=tmp --exclude-dir=.debhelper \
	--exclude-dir=libsigfd0 --exclude-dir=libsigfd-dev --exclude-dir=sigfd-tools \
	--exclude-dir=sigfd-dkms --exclude='*.debhelper' --exclude='*.substvars' -e "$version" . |
	grep -v -e '^\./VERSION:' -e '^\./NEWS:' -e '^\./debian/changelog:' \
		-e '^\./docs/[^:]*\.[0-9]:[0-9]*:\.TH ' -e '^\./debian/libsigfd0\.symbols:' \
		-e '^\./docs/sigfd\.3:[0-9]*:first appeared in sigfd ' \
		-e '^\./docs/init-wrappers\.md:' >"$tmp/other" || :
[ ! -s "$tmp/other" ] || { cat "$tmp/other"; fail "the version $version written by hand above: read it from VERSION"; }
echo "version $version: VERSION, Makefile, tools, library, header, man pages, NEWS, debian/changelog agree"
