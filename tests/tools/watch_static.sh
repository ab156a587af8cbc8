#!/bin/sh
# SPDX-License-Identifier: MIT
# The static build (make static, the container image's): build/static/bin's
# sigfd-watch and sigfd-send have no program interpreter and no shared
# library, say VERSION's version, and sigfd-watch runs a COMMAND with an
# empty environment, logs who signalled it (user name included: musl reads
# /etc/passwd itself), passes the signal on and exits with its status.
# `make static-check` builds and checks it (CI, once); inside make check it
# checks the build that is there, or says SKIPPED: the build takes too long
# for every pass of the suite (tools/tools.mk).
set -eu
cd "$(dirname "$0")/../.."
S=build/static/bin
[ -x "$S/sigfd-watch" ] && [ -x "$S/sigfd-send" ] ||
	{ echo "SKIPPED: no static build in $S (make static-check builds and checks it)"; exit 77; }
command -v readelf >/dev/null 2>&1 || { echo "SKIPPED: readelf missing (apt-get install binutils)"; exit 77; }
fail() { echo "watch_static: $*"; exit 1; }
version=$(cat VERSION)
for tool in sigfd-watch sigfd-send; do
	! readelf -lW "$S/$tool" | grep -q INTERP || fail "$tool has a program interpreter: not static"
	! readelf -dW "$S/$tool" | grep -q NEEDED || fail "$tool needs shared libraries: $(readelf -dW "$S/$tool" | grep NEEDED)"
	got=$(env -i "$S/$tool" --version)
	[ "$got" = "$tool (sigfd) $version" ] || fail "$tool --version: '$got', VERSION $version"
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# COMMAND's cat reads a FIFO we hold open for writing: it waits until the
# SIGUSR1 passed on ends it (128+10).
mkfifo "$tmp/hold"
exec 5<>"$tmp/hold"
rc=0
env -i "$S/sigfd-watch" -o "$tmp/log" -- /bin/sh -c 'kill -USR1 $PPID; exec cat' <&5 2>"$tmp/err" || rc=$?
exec 5>&-
[ $rc = 138 ] || fail "status $rc, want 138 (SIGUSR1 passed on); log: $(cat "$tmp/log" "$tmp/err")"
grep -q " SIGUSR1 kill pid=[0-9]* comm=[a-z]* uid=$(id -u) user=$(id -un)\$" "$tmp/log" ||
	fail "no SIGUSR1 record from COMMAND: $(cat "$tmp/log")"
echo "static: sigfd-watch $(wc -c <"$S/sigfd-watch") bytes, sigfd-send $(wc -c <"$S/sigfd-send") bytes, no interpreter, ran"
