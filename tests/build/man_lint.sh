#!/bin/sh
# SPDX-License-Identifier: MIT
# build-independent: reads the man pages and src/
# Every manual page in docs/ is clean under mandoc -Tlint (errors, warnings
# and style alike); a page that only sources another (.so) names a page that
# exists and whose NAME line lists it. Every function <sigfd.h> declares has
# a page. Every errno the library sets itself (`errno = E...` in src/) is
# named under ERRORS in sigfd(3), which has the sections a library page
# needs.
set -eu
command -v mandoc >/dev/null 2>&1 || { echo "SKIPPED: mandoc is not installed (apt-get install mandoc)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "$*"; bad=1; }

pages=$(ls docs/*.[1-8])
[ -n "$pages" ] || { echo "no manual pages in docs/"; exit 1; }
for page in $pages; do
	name=$(basename "$page")
	sec=${name##*.}
	if grep -q '^\.so ' "$page"; then
		target=$(sed -n 's/^\.so //p' "$page")
		[ "$(grep -cv '^\.\\"' "$page")" = 1 ] || fail "$page: a .so page holds nothing but the .so line"
		[ -f "docs/$(basename "$target")" ] || { fail "$page: .so $target: no such page in docs/"; continue; }
		func=${name%.*}
		sed -n '/^\.SH NAME/,/^\.SH/p' "docs/$(basename "$target")" | grep -q "\\b$func\\b" ||
			fail "$page: the NAME section of $target does not list $func"
		# As man reads it, from the top of a manual tree.
		mkdir -p "$tmp/man$sec"
		cp "docs/$(basename "$target")" "$tmp/$target"
		cp "$page" "$tmp/man$sec/$name"
		(cd "$tmp" && mandoc -Tlint -Werror "man$sec/$name") >"$tmp/out" 2>&1 || true
	else
		mandoc -Tlint "$page" >"$tmp/out" 2>&1 || true
	fi
	[ ! -s "$tmp/out" ] || { cat "$tmp/out"; fail "$page: mandoc -Tlint is not clean"; }
done

# One page per function name.
for func in $(sed -n 's/^[a-z][a-z_ ]*[ *]\(sigfd[a-z0-9_]*\)(.*/\1/p' include/sigfd.h); do
	[ -f "docs/$func.3" ] || fail "$func() is declared in <sigfd.h> but has no docs/$func.3"
done

page=docs/sigfd.3
for section in ERRORS ATTRIBUTES VERSIONS STANDARDS BUGS EXAMPLES 'SEE ALSO'; do
	grep -qx "\.SH \"*$section\"*" "$page" || fail "$page: no $section section"
done
! grep -qx '\.SH EXAMPLE' "$page" || fail "$page: EXAMPLE is spelt EXAMPLES"
sed -n '/^\.SH ERRORS/,/^\.SH /p' "$page" >"$tmp/errors"
set_in_src=$(grep -ho 'errno = E[A-Z0-9]*' src/*.c src/*.h | sed 's/errno = //' | sort -u)
[ -n "$set_in_src" ] || fail "no errno = E... found in src/: has the library moved?"
for e in $set_in_src; do
	grep -qw "$e" "$tmp/errors" || fail "$page: $e is set in src/ but not named under ERRORS"
done
exit $bad
