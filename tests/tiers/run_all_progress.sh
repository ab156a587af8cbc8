#!/bin/sh
# SPDX-License-Identifier: MIT
# build-independent: drives the runner and guest_boot with stand-ins
# The runner's first line counts the runs to come. Long tiers say what
# they are doing while make check runs: a shell test
# with the line "# progress: shown" writes to $SIGFD_PROGRESS_FD and the
# line reaches the runner's output while the test still runs (it waits for
# the runner's output to hold it); a test without the line gets no such
# descriptor. And the guest tiers' boot (kernel/guest/lib.sh guest_boot,
# here with a QEMU of our own) tells the boot and each test's result as the
# console shows them, and keeps the console log without its CRs.
set -eu
# The runner under test runs every test it is given, whatever our own run selected.
unset ONLY
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$tmp/tests/t" "$tmp/b/tests" "$tmp/bin"
cp "$top/tests/run-all" "$top/tests/hang-report" "$top/tests/known.inc" "$tmp/tests/"
echo 't host' >"$tmp/tests/folders"
: >"$tmp/tests/known-differences"
# (The line written apart, so that this file itself does not hold it.)
printf '# progress: %s\n' shown >"$tmp/tests/t/long.sh"
cat >>"$tmp/tests/t/long.sh" <<'SH'
echo "stage one" >&"$SIGFD_PROGRESS_FD"
until grep -q '^stage one$' out 2>/dev/null; do sleep 0.01; done
SH
cat >"$tmp/tests/t/plain.sh" <<'SH'
[ -z "${SIGFD_PROGRESS_FD:-}" ] || { echo "SIGFD_PROGRESS_FD=$SIGFD_PROGRESS_FD without the line"; exit 1; }
SH
(cd "$tmp" && BUILD=b TEST_TIMEOUT=30 sh tests/run-all >out 2>&1) ||
	{ cat "$tmp/out"; echo "run-all failed"; exit 1; }
grep -q '^PASS long ' "$tmp/out" && grep -q '^PASS plain ' "$tmp/out" || { cat "$tmp/out"; exit 1; }
# The first line says how many runs are to come.
head -n 1 "$tmp/out" | grep -q '^run-all: 2 runs, ' || { cat "$tmp/out"; echo "no count of runs first"; exit 1; }

cat >"$tmp/bin/qemu-system-x86_64" <<'SH'
#!/bin/sh
printf 'SeaBIOS\r\nGUEST-BEGIN 6.12.1 cpus=2 init-at=1.0s\r\n'
printf 'GUEST-RESULT: share/a PASS 0.5s\r\nnoise\r\nGUEST-RESULT: share/b FAIL exit=1 0.2s\r\nGUEST-END\r\n'
SH
chmod 755 "$tmp/bin/qemu-system-x86_64"
# shellcheck disable=SC1091
(cd "$top" && out=$tmp PATH="$tmp/bin:$PATH" sh -c '
	note() { printf "tier: %s\n" "$*"; }
	. kernel/guest/lib.sh
	guest_boot 30 2 256 bzImage
' >"$tmp/notes")
printf 'tier: guest: Linux 6.12.1 booted\ntier: guest: share/a PASS 0.5s\ntier: guest: share/b FAIL exit=1 0.2s\n' >"$tmp/want"
cmp -s "$tmp/notes" "$tmp/want" || { diff "$tmp/want" "$tmp/notes"; echo "guest_boot's stage lines"; exit 1; }
grep -q "$(printf '\r')" "$tmp/console.log" && { echo "console.log keeps CRs"; exit 1; }
grep -qx 'GUEST-END' "$tmp/console.log" && [ "$(cat "$tmp/qemu.rc")" = 0 ] || { cat "$tmp/console.log"; exit 1; }
