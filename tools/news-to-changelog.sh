#!/bin/sh
# SPDX-License-Identifier: MIT
# debian/changelog made from NEWS, printed on standard output: one entry per
# "sigfd VERSION, YYYY-MM-DD" heading, its "* " items as the entry's, the
# maintainer from debian/control. `make changelog` writes it;
# tests/build/version.sh checks that the committed file is what this prints, so
# the two never tell users different things.
set -eu
cd "$(dirname "$0")/.."
maint=$(sed -n 's/^Maintainer: *//p' debian/control)
[ -n "$maint" ] || { echo "news-to-changelog: no Maintainer in debian/control" >&2; exit 1; }
# NEWS gives the day only: noon UTC.
stamp() { LC_ALL=C date -u -d "$1 12:00:00" '+%a, %d %b %Y %H:%M:%S +0000'; }
awk '
/^sigfd [0-9][0-9.]*, [0-9-]+$/ { print; next }
/^\* / || /^  [^ ]/ { print; next }
' NEWS | {
	first=1
	while IFS= read -r line; do
		case $line in
		"sigfd "*)
			[ $first = 1 ] || printf '\n -- %s  %s\n\n' "$maint" "$(stamp "$day")"
			first=0
			v=${line#sigfd }; v=${v%%,*}; day=${line##*, }
			printf 'sigfd (%s) unstable; urgency=medium\n\n' "$v" ;;
		*) printf '  %s\n' "$line" ;; # an item, or its next line
		esac
	done
	[ $first = 1 ] && { echo "news-to-changelog: no version heading in NEWS" >&2; exit 1; }
	printf '\n -- %s  %s\n' "$maint" "$(stamp "$day")"
}
