#!/bin/sh
# SPDX-License-Identifier: MIT
# make demo's script (tools/demo.sh) runs to its end with this build and
# tells its story: sigfd-watch's records, sigfd-watch -- COMMAND (the TERM
# from the demo's shell logged, COMMAND's trap run, its status 3 ours), and
# the listen-in example's end of file. Not COMMAND's SIGCHLD record, which
# the log lacked in some runs (issue 27 item 2).
set -eu
cd "$(dirname "$0")/../.."
out=$(sh tools/demo.sh 2>&1) || { echo "$out"; echo "demo_story: tools/demo.sh failed"; exit 1; }
fail() { echo "$out"; echo "demo_story: $*"; exit 1; }
for want in \
	'== sigfd-watch -o LOG -- sh -c' \
	'   COMMAND: SIGTERM came, exit 3' \
	'   sigfd-watch exited with status 3, COMMAND'"'"'s; its messages and its log:' \
	'   sigfd-watch: running pid [0-9]*: sh' \
	'   [0-9:.]* SIGTERM kill pid=[0-9]* comm=sh '; do
	printf '%s\n' "$out" | grep -q "^$want" || fail "no line '$want'"
done
printf '%s\n' "$out" | grep -qi 'end of file' || fail "the listen-in story did not reach end of file"
echo "demo: $(printf '%s\n' "$out" | grep -c '^== ') steps"
