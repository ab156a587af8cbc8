#!/bin/sh
# SPDX-License-Identifier: MIT
# The series' selftest has one source, kernel/selftest/ (the program, its
# Makefile, config and .gitignore, and the commit message in `message`);
# the two posted copies, kernel/6.12/0008-* and kernel/7.3/0008-*, are made
# from it:
#   sh kernel/selftest.sh           write both patches from kernel/selftest/
#   sh kernel/selftest.sh --check   exit 1, naming the file, where a patch
#                                   does not carry kernel/selftest/ as it is
# What is each version's own is kept from its patch: the envelope (commit
# id, author, date) and the hunk adding `TARGETS += signalfd` to
# tools/testing/selftests/Makefile, made against that kernel's Makefile.
# The rest (subject, message, diffstat, the new files with their blob ids)
# is git format-patch's output for the sources, so the patch stays in the
# form `git am` and b4 take. Needs git; not the kernel sources.
set -eu
cd "$(dirname "$0")/.."

SRC=kernel/selftest
FILES=".gitignore Makefile config signalfd_creator_test.c"
DEST=tools/testing/selftests/signalfd

die() { echo "kernel/selftest.sh: $*" >&2; exit 1; }

# The new files' contents as patch $1 carries them, into directory $2.
unpack() {
	awk -v dir="$2" '
	/^diff --git a\/tools\/testing\/selftests\/signalfd\// {
		f = $3; sub("a/tools/testing/selftests/signalfd/", "", f)
		out = dir "/" f; body = 0; printf "" > out; next
	}
	/^diff --git/ { out = ""; next }
	out != "" && /^@@ / { body = 1; next }
	out != "" && body && /^\+/ { print substr($0, 2) > out; next }
	out != "" && body && /^-- $/ { out = "" }
	' "$1"
}

check() {
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	bad=0
	for p in kernel/*/0008-*.patch; do
		rm -rf "$tmp/got" && mkdir "$tmp/got"
		unpack "$p" "$tmp/got"
		for f in $FILES; do
			cmp -s "$SRC/$f" "$tmp/got/$f" ||
				{ echo "$p: $DEST/$f differs from $SRC/$f (sh kernel/selftest.sh rewrites it)" >&2; bad=1; }
		done
		# The subject and message, as the patch has them.
		awk '/^Subject:/ { sub(/^Subject: \[PATCH [0-9]+\/[0-9]+\] /, ""); p = 1 }
		     p && /^---$/ { exit } p' "$p" >"$tmp/message"
		cmp -s "$SRC/message" "$tmp/message" ||
			{ echo "$p: its message differs from $SRC/message" >&2; bad=1; }
	done
	return $bad
}

# format-patch's output for kernel/selftest/ on a Makefile that gains the
# same one line: the diffstat and the new files' sections are right; the
# Makefile's own section is replaced by the version's.
generated() {
	g=$1
	git init -q "$g/repo"
	mkdir -p "$g/repo/$DEST"
	printf 'TARGETS += signal\n' >"$g/repo/tools/testing/selftests/Makefile"
	git -C "$g/repo" add -A
	git -C "$g/repo" -c user.name=x -c user.email=x@x commit -q -m base
	printf 'TARGETS += signalfd\n' >>"$g/repo/tools/testing/selftests/Makefile"
	for f in $FILES; do cp "$SRC/$f" "$g/repo/$DEST/$f"; done
	git -C "$g/repo" add -A
	git -C "$g/repo" -c user.name=x -c user.email=x@x commit -q -F "$(pwd)/$SRC/message"
	git -C "$g/repo" -c core.abbrev=9 format-patch -q --stdout --abbrev=9 -1 \
		--subject-prefix='PATCH 8/8' HEAD >"$g/out"
}

write() {
	g=$(mktemp -d)
	trap 'rm -rf "$g"' EXIT
	generated "$g"
	for p in kernel/*/0008-*.patch; do
		awk -v gen="$g/out" '
		# The envelope: this patch'"'"'s own, up to its subject.
		FNR == NR { if (/^Subject:/) hdr = 1; if (!hdr) env = env $0 "\n"
			    if (/^diff --git a\/tools\/testing\/selftests\/Makefile/) mk = 1
			    else if (/^diff --git/) mk = 0
			    if (mk) make = make $0 "\n"
			    next }
		FNR == 1 { printf "%s", env }
		/^Subject:/ { top = 1 }
		!top { next }
		/^diff --git a\/tools\/testing\/selftests\/Makefile/ { skip = 1; printf "%s", make; next }
		/^diff --git/ { skip = 0 }
		!skip { print }
		' "$p" "$g/out" >"$g/new"
		mv "$g/new" "$p"
	done
}

case ${1:-write} in
--check) check ;;
write) write; check ;;
*) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac
