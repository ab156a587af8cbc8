#!/bin/sh
# SPDX-License-Identifier: MIT
# build-independent: drives the runner with a tree of its own
# tests/run-all holds no test to its time limit once it has ended: its
# watchdog (setsid sh -c 'sleep LIMIT; kill -USR1') is stopped however far
# it got. A setsid of our own holds the watchdog back until the test has
# exited and the runner sleeps again, which is where the race left the
# runner: its group kill found no group yet, and `wait` sat out the limit
# (an hour here). Then a hanging test must still fail at its limit.
set -eu
# The runner under test runs every test it is given, whatever our own run selected.
unset ONLY
tmp=$(mktemp -d)
# A runner that failed leaves its watchdog (pid in dog) asleep: ended here.
trap 'test -s "$tmp/dog" && { kill -TERM "$(cat "$tmp/dog")" "-$(cat "$tmp/dog")" 2>/dev/null || :; }; rm -rf "$tmp"' EXIT
top=$(cd "$(dirname "$0")/../.." && pwd)
# Programs are found from their sources: tests/t/NAME.c, run as b/tests/t/NAME.
mkdir -p "$tmp/tests/t" "$tmp/b/tests/t" "$tmp/bin"
cp "$top/tests/run-all" "$top/tests/hang-report" "$top/tests/known.inc" "$tmp/tests/"
echo 't host' >"$tmp/tests/folders"
: >"$tmp/tests/known-differences"
real_setsid=$(command -v setsid)
cat >"$tmp/bin/setsid" <<SH
#!/bin/sh
case \${3:-} in *USR1*)
	# The watchdog: on once the test is reaped and the runner waits again.
	echo \$\$ >"$tmp/dog"
	until [ -s "$tmp/mark" ] && ! kill -0 "\$(cat "$tmp/mark")" 2>/dev/null &&
		[ "\$(cut -d' ' -f3 /proc/\$PPID/stat)" = S ]; do
		sleep 0.01
	done ;;
esac
exec $real_setsid "\$@"
SH
printf '#!/bin/sh\necho $$ >"%s/mark"\n' "$tmp" >"$tmp/b/tests/t/instant"
chmod 755 "$tmp/bin/setsid" "$tmp/b/tests/t/instant"
: >"$tmp/tests/t/instant.c"

rc=0
(cd "$tmp" && PATH="$tmp/bin:$PATH" BUILD=b TEST_TIMEOUT=3600 timeout 30 sh tests/run-all) >"$tmp/out" 2>&1 || rc=$?
[ $rc -ne 124 ] || { cat "$tmp/out"; echo "run-all still waited 30 s after an instant test (limit 3600 s)"; exit 1; }
[ $rc -eq 0 ] && grep -q '^PASS instant (' "$tmp/out" || { cat "$tmp/out"; echo "run-all: exit $rc"; exit 1; }

# The watchdog still ends a test that hangs (the real setsid now), and
# with it what the test runs under timeout(1), in a process group of its
# own as a guest's QEMU is: the session's every process.
rm -f "$tmp/b/tests/t/instant" "$tmp/tests/t/instant.c"
cat >"$tmp/b/tests/t/hangs" <<SH
#!/bin/sh
timeout 3600 sh -c 'echo \$\$ >"$tmp/inner"; exec sleep 3600' &
echo \$! >"$tmp/timeout"
until [ -s "$tmp/inner" ]; do sleep 0.01; done
exec sleep 3600
SH
chmod 755 "$tmp/b/tests/t/hangs"
: >"$tmp/tests/t/hangs.c"
rc=0
(cd "$tmp" && BUILD=b TEST_TIMEOUT=2 timeout 50 sh tests/run-all) >"$tmp/out" 2>&1 || rc=$?
[ $rc -eq 1 ] && grep -q '^FAIL hangs (timed out after 2s)' "$tmp/out" ||
	{ cat "$tmp/out"; echo "a hanging test was not failed at its limit (exit $rc)"; exit 1; }
# SIGKILLed, each is gone or a zombie awaiting its reaper (init), within 5 s.
living() { kill -0 "$1" 2>/dev/null && [ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" != Z ]; }
for what in timeout inner; do
	pid=$(cat "$tmp/$what")
	i=0
	while living "$pid" && [ $i -lt 500 ]; do
		sleep 0.01
		i=$((i + 1))
	done
	! living "$pid" || { cat "$tmp/out"; echo "the hanging test's $what (pid $pid) outlived its kill"; exit 1; }
done
