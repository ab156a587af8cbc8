#!/bin/sh
# SPDX-License-Identifier: MIT
# A new version: tools/set-version.sh X.Y.Z writes it to VERSION, the one
# source the Makefile reads (soname, sigfd.pc, CMake, the tools' --version),
# and to what must carry it literally: <sigfd.h>'s SIGFD_VERSION_* and the
# man pages' .TH lines. Then add a "sigfd X.Y.Z, YYYY-MM-DD" entry to NEWS
# and run `make changelog`; tests/build/version.sh fails until every place agrees.
set -eu
cd "$(dirname "$0")/.."
v=${1:?usage: tools/set-version.sh X.Y.Z}
echo "$v" | grep -qx '[0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*' || { echo "set-version: '$v' is not X.Y.Z" >&2; exit 2; }
major=${v%%.*} rest=${v#*.}
minor=${rest%%.*} patch=${rest#*.}
printf '%s\n' "$v" >VERSION
sed -i -e "s/^#define SIGFD_VERSION_MAJOR .*/#define SIGFD_VERSION_MAJOR $major/" \
	-e "s/^#define SIGFD_VERSION_MINOR .*/#define SIGFD_VERSION_MINOR $minor/" \
	-e "s/^#define SIGFD_VERSION_PATCH .*/#define SIGFD_VERSION_PATCH $patch/" include/sigfd.h
for page in docs/*.[0-9]; do
	[ -L "$page" ] && continue # sigfd_setmask.3 and the like: links to a page
	sed -i "s/^\(\.TH .*\)\"sigfd [0-9.]*\"/\1\"sigfd $v\"/" "$page"
done
grep -q "^sigfd $v, " NEWS || echo "set-version: now add a 'sigfd $v, $(date -u +%F)' entry to NEWS and run make changelog"
