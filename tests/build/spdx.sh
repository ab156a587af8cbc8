#!/bin/sh
# SPDX-License-Identifier: MIT
# build-independent: reads the tree's files
# Every source file names its licence in an SPDX-License-Identifier line
# within its first three lines, and the licence is the one LICENSE and
# debian/copyright give it: GPL-2.0 for the kernel module and the series'
# selftest (kernel/selftest/), the uapi header
# dual, MIT for everything else. Source files: C, shell, make, man pages,
# templates, scripts (a #! line) and the Debian packaging's code; data and
# prose (results, Markdown, LICENSE, debian/changelog) carry none.
set -eu
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	files=$(git ls-files --cached --others --exclude-standard)
else
	files=$(find . -path ./build -prune -o -path ./.git -prune -o -type f -print | sed 's|^\./||')
fi
bad=0 seen=0
for f in $files; do
	[ -f "$f" ] || continue
	case $f in *.mod.c) continue ;; esac # Kbuild's, generated in kmod/ (no git to say so here)
	case $f in
	*.c | *.h | *.sh | *.mk | *.inc | *.in | *.gp | *.[1-8] | Makefile | */Makefile | Kbuild | */Kbuild | \
		debian/rules | debian/*.dkms | debian/dkms.conf | debian/control | debian/*.install | debian/*.examples) ;;
	*) head -c 2 "$f" | grep -q '^#!' || continue ;;
	esac
	seen=$((seen + 1))
	case $f in
	kmod/sigfd.c | kmod/Kbuild | kernel/selftest/*) want='GPL-2.0' ;;
	kmod/sigfd_uapi.h) want='(GPL-2.0 WITH Linux-syscall-note) OR MIT' ;;
	*) want='MIT' ;;
	esac
	got=$(head -n 3 "$f" | sed -n 's/.*SPDX-License-Identifier: \(.*\)$/\1/p' | sed 's/ *\*\/$//' | head -n 1)
	if [ -z "$got" ]; then
		echo "$f: no SPDX-License-Identifier line in its first three lines"
		bad=1
	elif [ "$got" != "$want" ]; then
		echo "$f: SPDX-License-Identifier: $got (want $want)"
		bad=1
	fi
done
[ "$seen" -gt 100 ] || { echo "only $seen source files found: is this the source tree?"; exit 1; }
exit $bad
