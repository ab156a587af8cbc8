#!/bin/sh
# SPDX-License-Identifier: MIT
# build-independent: runs the guest tiers' SIGFD_GUESTS=0 branch
# The guest tiers' SKIPPED lines under SIGFD_GUESTS=0 say why (the variable,
# not a claim that another pass ran them: on a fresh clone none has) and the
# command that runs the tier. Only the SIGFD_GUESTS=0 branch runs here: it
# returns before anything is built or booted.
set -eu
cd "$(dirname "$0")/../.."
for tier in kmod:kmod-check kpatch:kpatch-check; do
	rc=0
	out=$(SIGFD_GUESTS=0 sh "tests/tiers/${tier%%:*}_guest.sh") || rc=$?
	[ $rc = 77 ] || { echo "${tier%%:*}_guest: status $rc, want 77 (SKIPPED): $out"; exit 1; }
	case $out in
	"SKIPPED: "*"SIGFD_GUESTS=0 is set; run it with make ${tier#*:}, or make check without SIGFD_GUESTS=0") ;;
	*) echo "${tier%%:*}_guest: the line does not say why and how to run it: $out"; exit 1 ;;
	esac
done
echo "kmod_guest, kpatch_guest: SKIPPED lines name SIGFD_GUESTS=0 and the command"
