#!/bin/sh
# SPDX-License-Identifier: MIT
# The deployment examples, checked without a container engine or systemd:
#  - examples/container/Dockerfile runs `make static` and copies the file
#    that target builds (tools/tools.mk) to where its ENTRYPOINT runs it;
#    the ENTRYPOINT is a JSON array ending in "--", and its options (and
#    CMD after them) run here under this build's sigfd-watch; .dockerignore
#    keeps build/ out of the context;
#  - examples/systemd/mydaemon.service: ExecStart's options run here, and
#    Type=notify comes with NotifyAccess=all (tests/tools/watch_notify says why).
set -eu
cd "$(dirname "$0")/../.."
W=$BUILD/bin/sigfd-watch
D=examples/container/Dockerfile
U=examples/systemd/mydaemon.service
command -v jq >/dev/null 2>&1 || { echo "SKIPPED: jq missing, to read the ENTRYPOINT (apt-get install jq)"; exit 77; }
fail() { echo "watch_deploy_examples: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

grep -qx 'RUN make static' "$D" || fail "$D does not run make static"
from=$(sed -n 's|^COPY --from=build /src/\([^ ]*\) \([^ ]*\)$|\1|p' "$D")
to=$(sed -n 's|^COPY --from=build /src/\([^ ]*\) \([^ ]*\)$|\2|p' "$D")
[ "$from" = build/static/bin/sigfd-watch ] || fail "$D copies '$from'"
grep -q 'build/static/bin/sigfd-watch' tools/tools.mk || fail "make static no longer builds $from"
grep -qx build .dockerignore || fail ".dockerignore lets build/ into the context"
entry=$(sed -n 's/^ENTRYPOINT //p' "$D")
cmd=$(sed -n 's/^CMD //p' "$D")
[ "$(echo "$entry" | jq -r '.[0]')" = "$to" ] || fail "ENTRYPOINT $entry does not run $to"
[ "$(echo "$entry" | jq -r '.[-1]')" = -- ] || fail "ENTRYPOINT $entry does not end in --"
# Its options and CMD's first word with this build: a child that exits.
echo "$entry" | jq -r '.[1:-1][]' >"$tmp/opts"
echo "$cmd" | jq -e 'length > 0' >/dev/null || fail "CMD $cmd"
rc=0
# shellcheck disable=SC2046 # one option a line, none with a blank
"$W" $(cat "$tmp/opts") -- sh -c 'command -v "$0" >/dev/null' "$(echo "$cmd" | jq -r '.[0]')" 2>"$tmp/err" || rc=$?
[ $rc = 0 ] || fail "the ENTRYPOINT's options: status $rc: $(cat "$tmp/err")"

exec_start=$(sed -n 's/^ExecStart=//p' "$U")
case $exec_start in
*/sigfd-watch\ *\ --\ *) ;;
*) fail "$U: ExecStart=$exec_start does not run a COMMAND under sigfd-watch" ;;
esac
opts=${exec_start#* }
opts=${opts%% -- *}
rc=0
# shellcheck disable=SC2086 # the unit's words
"$W" $opts -- true 2>"$tmp/err" || rc=$?
[ $rc = 0 ] || fail "$U's options '$opts': status $rc: $(cat "$tmp/err")"
if grep -qx 'Type=notify' "$U"; then
	grep -qx 'NotifyAccess=all' "$U" || fail "$U: Type=notify without NotifyAccess=all"
fi
grep -qx 'KillMode=mixed' "$U" || fail "$U: not KillMode=mixed, so systemd signals the daemon too"
echo "Dockerfile: make static, COPY $from, ENTRYPOINT options run; unit: options '$opts' run, NotifyAccess=all"
