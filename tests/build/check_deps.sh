#!/bin/sh
# SPDX-License-Identifier: MIT
# build-independent: drives tests/check-deps with a faked dpkg-query
# tests/check-deps (make check's first step), never installing here
# (SIGFD_NO_INSTALL=1): it names every missing package in one apt-get line,
# writes its stamp only when nothing is missing, and never fails the build.
# dpkg-query is faked so that chosen packages look missing.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
cat >"$tmp/bin/dpkg-query" <<'SH'
#!/bin/sh
for a; do pkg=$a; done
for m in $FAKE_MISSING; do [ "$m" = "$pkg" ] && exit 1; done
exec /usr/bin/dpkg-query "$@"
SH
chmod 755 "$tmp/bin/dpkg-query"
run() { FAKE_MISSING=$1 SIGFD_NO_INSTALL=1 PATH="$tmp/bin:$PATH" sh tests/check-deps "$tmp/ok" 2>"$tmp/err"; }

# A host tier's, the module tier's and the patched-kernel tier's (which
# kernel/run.sh asks dpkg about; busybox-static both guests need, named once).
run "mandoc jq gcovr busybox-static libelf-dev" || { echo "check-deps failed: $(cat "$tmp/err")"; exit 1; }
line=$(grep 'apt-get install ' "$tmp/err") || { cat "$tmp/err"; echo "no apt-get line"; exit 1; }
for p in mandoc jq gcovr busybox-static libelf-dev; do
	case " $line " in *" $p "*) ;; *) echo "$line"; echo "missing $p not named"; exit 1 ;; esac
done
[ "$(grep -o busybox-static "$tmp/err" | wc -l)" = 1 ] || { cat "$tmp/err"; echo "busybox-static named twice"; exit 1; }
[ ! -e "$tmp/ok" ] || { echo "stamp written with packages missing"; exit 1; }

# Nothing faked: the stamp exactly when the real system has everything.
real="$(sh kmod/guest-run.sh --missing 2>/dev/null) $(sh kernel/kdebug.sh --missing 2>/dev/null)" || true
real=$(echo "$real" | xargs)
for p in $(sh tests/check-deps --host-packages); do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || real="$real $p"
done
run "" || { echo "check-deps failed: $(cat "$tmp/err")"; exit 1; }
if [ -z "$real" ]; then
	[ -e "$tmp/ok" ] || { cat "$tmp/err"; echo "no stamp with nothing missing"; exit 1; }
	[ ! -s "$tmp/err" ] || { cat "$tmp/err"; echo "output with nothing missing"; exit 1; }
else
	[ ! -e "$tmp/ok" ] || { echo "stamp written while$real is missing"; exit 1; }
	grep -q 'apt-get install' "$tmp/err" || { cat "$tmp/err"; echo "missing$real not named"; exit 1; }
fi
