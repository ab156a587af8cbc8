#!/bin/sh
# SPDX-License-Identifier: MIT
# build-independent: sources the guests' /common.sh, boots nothing
# The guests' ONLY patterns (KMOD_ONLY, KPATCH_ONLY) match test names, not
# files: the guest's /init runs in /, where a pattern such as 's*' would
# otherwise expand to sbin, sigfd.ko and sys and select no test at all.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/sbin" "$tmp/sys" && : >"$tmp/sigfd.ko"
cd "$tmp"
. "$top/kernel/guest/common.sh"
want() { # want yes|no NAME: selected NAME under $ONLY
	got=no
	selected "$2" && got=yes
	[ "$got" = "$1" ] || { echo "ONLY='$ONLY': $2 selected: $got, want $1"; exit 1; }
}
ONLY='s*'
want yes share/share_wake_after_setuid
want yes stress/exit_timers
want no kmod/refusal_wake
ONLY='kmod/refusal* end/*'
want yes kmod/refusal_wake
want yes end/widened
want no kmod/errors
ONLY=
want yes kmod/errors
# The caller's globbing is left as it was.
set -- *
[ $# = 3 ] || { echo "selected left globbing off: * gave $*"; exit 1; }
echo "ONLY patterns match test names wherever /init runs, and globbing is restored"
