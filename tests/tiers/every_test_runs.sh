#!/bin/sh
# SPDX-License-Identifier: MIT
# build-independent: asks the runners what they would run
# Every test is run by some tier, and by the tiers its folder names in
# tests/folders: a test moved or renamed cannot drop out unseen. Checked
# against what each runner says it would run (--list), not against the
# table alone: tests/run-all (host, host-share), kmod/guest-run.sh (kmod)
# and kernel/run.sh (kpatch, which also fails when kernel/kmod-tests names
# a kmod/tests program that does not exist). A test is tests/FOLDER/NAME.c
# or tests/FOLDER/NAME.sh, or kmod/tests/NAME.c; its name is unique.
set -u
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
err() { echo "$*"; bad=1; }

awk '{ sub(/#.*/, "") } NF' tests/folders >"$tmp/folders"
# tier_folders TIER: the folders the table gives TIER.
tier_folders() { awk -v tier="$1" '{ for (i = 2; i <= NF; i++) if ($i == tier) print $1 }' "$tmp/folders"; }

# The table: known tiers, existing folders, each with a tier.
while read -r folder tiers; do
	[ -d "tests/$folder" ] || err "tests/folders names tests/$folder, which does not exist"
	[ -n "$tiers" ] || err "tests/folders gives tests/$folder no tier"
	for t in $tiers; do
		case $t in host | host-share | kmod | kpatch) ;; *) err "tests/folders: tests/$folder: unknown tier $t" ;; esac
	done
done <"$tmp/folders"

# The tests in the tree.
for f in tests/*.c tests/*.sh; do
	[ -e "$f" ] && err "$f: a test directly in tests/, where no tier looks: move it into a folder (tests/folders)"
done
for f in tests/*/*.c tests/*/*.sh kmod/tests/*.c; do
	[ -f "$f" ] && echo "$f"
done | sort >"$tmp/tests"
while read -r f; do
	d=${f#tests/}
	d=${d%%/*}
	case $f in kmod/*) continue ;; esac
	grep -q "^$d " "$tmp/folders" || grep -qx "$d" "$tmp/folders" ||
		err "$f: its folder tests/$d is not in tests/folders, so no tier runs it"
done <"$tmp/tests"
sed 's|.*/||; s|\.[a-z]*$||' "$tmp/tests" | sort | uniq -d | while read -r n; do
	echo "two tests named $n: $(grep "/$n\.[a-z]*$" "$tmp/tests" | tr '\n' ' ')"
done >"$tmp/dups"
[ -s "$tmp/dups" ] && err "$(cat "$tmp/dups")"

# What each runner would run. A runner that cannot list fails the check.
sh tests/run-all --list >"$tmp/host" || err "tests/run-all --list failed"
sh kmod/guest-run.sh --list >"$tmp/kmod" || err "kmod/guest-run.sh --list failed"
sh kernel/run.sh --list >"$tmp/kpatch" 2>"$tmp/kpatch.err" || err "kernel/run.sh --list failed: $(cat "$tmp/kpatch.err")"

# Each test against the runners' lists (one awk: a few hundred tests).
awk '
FILENAME == ARGV[1] { for (i = 2; i <= NF; i++) tier[$1, $i] = 1; next }
FILENAME == ARGV[2] { test[$1] = 1; order[++n] = $1; next }
{ runs[FILENAME, $2] = 1; any[$2] = 1; if ($1 ~ /\[share\]$/) shared[$2] = 1 }
END {
	split("host kmod kpatch", tiers, " ")
	for (k = 1; k <= n; k++) {
		f = order[k]
		if (f ~ /^kmod\//) {
			if (!((ARGV[4], f) in runs)) { print f ": not run by kmod/guest-run.sh"; bad = 1 }
			continue
		}
		d = f; sub(/^tests\//, "", d); sub(/\/.*/, "", d)
		for (t = 1; t <= 3; t++) {
			if (!((d, tiers[t]) in tier) || (tiers[t] != "host" && f ~ /\.sh$/)) continue # the guests run programs
			if (!((ARGV[t + 2], f) in runs)) { print f ": tests/folders gives tests/" d " tier " tiers[t] ", whose runner does not run it"; bad = 1 }
		}
		if ((d, "host-share") in tier && !(f in shared)) { print f ": tier host-share, but tests/run-all does not run it in share mode"; bad = 1 }
		if (!(f in any)) { print f ": no tier runs it"; bad = 1 }
	}
	# And no runner runs what is not a test of the tree (a stale list).
	for (f in any) if (!(f in test)) { print "a runner runs " f ", which is not a test"; bad = 1 }
	exit bad
}' "$tmp/folders" "$tmp/tests" "$tmp/host" "$tmp/kmod" "$tmp/kpatch" || bad=1

[ $bad = 0 ] || exit 1
printf '%s tests: host %s runs, kmod %s programs, kpatch %s programs\n' "$(wc -l <"$tmp/tests")" \
	"$(wc -l <"$tmp/host")" "$(wc -l <"$tmp/kmod")" "$(wc -l <"$tmp/kpatch")"
