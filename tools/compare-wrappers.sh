#!/bin/sh
# SPDX-License-Identifier: MIT
# sigfd-watch -- COMMAND side by side with tini, dumb-init and catatonit
# (Debian: apt-get install tini dumb-init catatonit), each cell measured by
# running the wrapper here: a Markdown table on standard output, the one in
# docs/init-wrappers.md. A wrapper not installed gets "not installed"; the
# PID 1 row needs root (unshare -fp). Usage, after `make`:
#   BUILD=build/cc sh tools/compare-wrappers.sh
# COMMAND is mostly sigfd-watch itself in its plain watching mode (the
# "probe"): it reports the one signal it is given, with its value and
# sender, to a file. Waits are bounded (a wrapper that wedges is a result,
# not a hang): this is a measurement, not a test.
set -u
B=${BUILD:-build/cc}
SW=$(cd "$(dirname "$B/bin/sigfd-watch")" && pwd)/sigfd-watch
SEND=$(cd "$(dirname "$B/bin/sigfd-send")" && pwd)/sigfd-send
JOBS=$(cd "$B/tests/tools" 2>/dev/null && pwd)/watch_jobs
[ -x "$SW" ] && [ -x "$SEND" ] || { echo "compare-wrappers: build first (make)" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
me=$$

have() {
	case $1 in
	sigfd-watch) return 0 ;;
	*) command -v "$1" >/dev/null 2>&1 ;;
	esac
}

# prefix WRAPPER MODE: the command line that runs COMMAND under WRAPPER in
# MODE (plain, group, remap, rewrite, grace, log), or nothing when WRAPPER
# has no such option.
prefix() {
	case $1:$2 in
	sigfd-watch:plain) echo "$SW -q --" ;;
	sigfd-watch:group) echo "$SW -q -g --" ;;
	sigfd-watch:remap) echo "$SW -q -e 143 --" ;;
	sigfd-watch:rewrite) echo "$SW -q -r TERM:QUIT --" ;;
	sigfd-watch:grace) echo "$SW -q -k 0.5 --" ;;
	sigfd-watch:log) echo "$SW --" ;;
	tini:plain) echo "tini -s --" ;;
	tini:group) echo "tini -s -g --" ;;
	tini:remap) echo "tini -s -e 143 --" ;;
	tini:log) echo "tini -s -vvv --" ;;
	dumb-init:plain | dumb-init:group) echo "dumb-init" ;;
	dumb-init:rewrite) echo "dumb-init --rewrite 15:3" ;;
	dumb-init:log) echo "dumb-init -v" ;;
	catatonit:plain | catatonit:log) echo "catatonit --" ;;
	catatonit:group) echo "catatonit -g --" ;;
	*) ;;
	esac
}
# option WRAPPER MODE: the option that MODE takes, for the table.
option() {
	p=$(prefix "$1" "$2")
	p=${p#"$SW"}
	p=${p#"$1"}
	p=$(echo "$p" | sed 's/ -q//; s/ -s//; s/ --$//; s/^ *//')
	[ -n "$p" ] && echo " ($p)"
}

# bounded_wait PID SECONDS: wait for our child PID; its status, or 999 if
# it was still running after SECONDS (then it is killed).
bounded_wait() {
	# Its output away: a $(...) around us would wait for its sleep.
	(sleep "$2"; kill -KILL "$1" 2>/dev/null && echo hung >"$dir/hung") >/dev/null 2>&1 &
	dog=$!
	rm -f "$dir/hung"
	wait "$1" 2>/dev/null
	rc=$?
	kill "$dog" 2>/dev/null
	wait "$dog" 2>/dev/null
	[ -e "$dir/hung" ] && rc=999
	return 0
}

# probe_start PREFIX SIGNALS...: PREFIX runs the probe, which watches
# SIGNALS and reports the first to $dir/probe; returns once it watches.
probe_start() {
	p=$1
	shift
	rm -f "$dir/probe" "$dir/ready"
	mkfifo "$dir/ready"
	# shellcheck disable=SC2086 # p is a command line
	$p "$SW" -c 1 -o "$dir/probe" "$@" 2>"$dir/ready" >/dev/null </dev/null &
	wpid=$!
	ppid_line=$(timeout 10 head -n 1 "$dir/ready")
	probe_pid=$(echo "$ppid_line" | sed -n 's/.*watching pid \([0-9]*\).*/\1/p')
}
probe_end() {
	bounded_wait "$wpid" 5
	# A probe in COMMAND's group may still be writing what it got when
	# the wrapper has ended: given 2 s, then ended.
	i=0
	while [ -n "$probe_pid" ] && kill -0 "$probe_pid" 2>/dev/null && [ ! -s "$dir/probe" ] &&
		[ $i -lt 200 ]; do
		sleep 0.01
		i=$((i + 1))
	done
	[ -n "$probe_pid" ] && kill -KILL "$probe_pid" 2>/dev/null
	got=$(cat "$dir/probe" 2>/dev/null)
}

row_forward() {
	probe_start "$(prefix "$1" plain)" USR1
	kill -USR1 "$wpid"
	probe_end
	case $got in *" SIGUSR1 "*) echo yes ;; *) echo no ;; esac
}

row_queued() {
	probe_start "$(prefix "$1" plain)" RTMIN
	"$SEND" -q 42 RTMIN "$wpid"
	probe_end
	case $got in
	*" SIGRTMIN sigqueue pid=$wpid "*"value=42"*) echo "value 42, the wrapper as sender" ;;
	*" SIGRTMIN sigqueue "*"value=42"*) echo "yes: value 42, the sender's pid" ;;
	*" SIGRTMIN "*) echo "signal only, value lost" ;;
	*) echo no ;;
	esac
}

row_group() {
	p=$(prefix "$1" group)
	rm -f "$dir/probe" "$dir/ready"
	mkfifo "$dir/ready"
	# COMMAND is a shell; the probe, its child, is in its process group.
	# shellcheck disable=SC2086
	$p sh -c '"$1" -c 1 -o "$2" TERM 2>"$3" & wait' sh "$SW" "$dir/probe" "$dir/ready" \
		>/dev/null 2>&1 </dev/null &
	wpid=$!
	probe_pid=$(timeout 10 head -n 1 "$dir/ready" | sed -n 's/.*watching pid \([0-9]*\).*/\1/p')
	kill -TERM "$wpid"
	probe_end
	case $got in *" SIGTERM "*) echo "yes$(option "$1" group)" ;; *) echo no ;; esac
}

row_queued_group() {
	p=$(prefix "$1" group)
	rm -f "$dir/probe" "$dir/ready"
	mkfifo "$dir/ready"
	# As row_group, the probe watching RTMIN; the shell ignores it. By
	# number, both: RTMIN is 34 to glibc (env) and 35 to musl (the tools
	# in the musl pass), and a shell left to die of it ends the row early.
	# shellcheck disable=SC2086
	$p env --ignore-signal=34 --ignore-signal=35 sh -c '"$1" -c 1 -o "$2" RTMIN 2>"$3" & wait' sh "$SW" \
		"$dir/probe" "$dir/ready" >/dev/null 2>&1 </dev/null &
	wpid=$!
	probe_pid=$(timeout 10 head -n 1 "$dir/ready" | sed -n 's/.*watching pid \([0-9]*\).*/\1/p')
	"$SEND" -q 42 RTMIN "$wpid"
	probe_end
	kill -TERM "$wpid" 2>/dev/null
	bounded_wait "$wpid" 5
	case $got in
	*" SIGRTMIN sigqueue pid=$wpid "*"value=42"*) echo "value 42, the wrapper as sender$(option "$1" group)" ;;
	*" SIGRTMIN sigqueue "*"value=42"*) echo "yes: value 42, the sender's pid$(option "$1" group)" ;;
	*" SIGRTMIN "*) echo "signal only, value lost$(option "$1" group)" ;;
	*) echo no ;;
	esac
}

row_status() {
	# shellcheck disable=SC2046
	$(prefix "$1" plain) sh -c 'exit 3' >/dev/null 2>&1 </dev/null &
	bounded_wait $! 5
	a=$rc
	# shellcheck disable=SC2046
	$(prefix "$1" plain) sh -c 'kill -TERM $$' >/dev/null 2>&1 </dev/null &
	bounded_wait $! 5
	echo "$a, $rc"
}

row_remap() {
	p=$(prefix "$1" remap)
	[ -n "$p" ] || { echo "no option"; return; }
	# shellcheck disable=SC2086
	$p sh -c 'kill -TERM $$' >/dev/null 2>&1 </dev/null &
	bounded_wait $! 5
	[ "$rc" = 0 ] && echo "yes$(option "$1" remap)" || echo "no: $rc"
}

row_rewrite() {
	p=$(prefix "$1" rewrite)
	[ -n "$p" ] || { echo "no option"; return; }
	probe_start "$p" TERM QUIT
	kill -TERM "$wpid"
	probe_end
	case $got in *" SIGQUIT "*) echo "yes$(option "$1" rewrite)" ;; *) echo "no: $got" ;; esac
}

# reap_check PREFIX...: COMMAND orphans a process; is the wrapper its new
# parent, and once it exits, is it reaped (looked for up to 5 s) or left a
# zombie? "reaped", "zombie", or "not adopted" (another process got it).
reap_check() {
	rm -f "$dir/orphan" "$dir/reap" "$dir/go"
	mkfifo "$dir/orphan" "$dir/go"
	"$@" sh -c '
		(sh -c "echo \$\$ >\"\$1\"; read x <\"\$2\"" sh "$1" "$3" &)
		o=$(head -n 1 "$1")
		parent=$(sed "s/.*) //" "/proc/$o/stat" | cut -d " " -f 2)
		echo go >"$3"
		i=0
		while [ -e "/proc/$o" ] && [ $i -lt 500 ]; do sleep 0.01; i=$((i + 1)); done
		if [ "$parent" != "$PPID" ]; then echo "not adopted" >"$2"
		elif [ -e "/proc/$o" ]; then echo zombie >"$2"
		else echo reaped >"$2"; fi' sh "$dir/orphan" "$dir/reap" "$dir/go" \
		>/dev/null 2>&1 </dev/null &
	bounded_wait $! 10
	cat "$dir/reap" 2>/dev/null || echo "no answer ($rc)"
}

row_pid1() {
	[ "$(id -u)" = 0 ] || { echo "not measured (needs root)"; return; }
	# shellcheck disable=SC2046
	r=$(reap_check unshare -fp --mount-proc $(prefix "$1" plain))
	[ "$r" = reaped ] && echo yes || echo "$r"
}

row_subreaper() {
	# shellcheck disable=SC2046
	r=$(reap_check $(prefix "$1" plain))
	case $1:$r in
	tini:reaped)
		# shellcheck disable=SC2046
		r2=$(reap_check tini --)
		[ "$r2" = reaped ] && echo yes || echo "with -s only" ;;
	*:reaped) echo yes ;;
	*) echo "no: $r" ;;
	esac
}

row_jobs() {
	[ -x "$JOBS" ] || { echo "not measured (build tests/tools/watch_jobs)"; return; }
	for mode in "" "-c"; do
		case $1 in
		sigfd-watch) [ -z "$mode" ] || continue; w= ;;
		dumb-init) w="$(command -v dumb-init) $mode" ;;
		*) [ -z "$mode" ] || continue; w="$(command -v "$1") --" ;;
		esac
		[ "$1" = tini ] && w="$(command -v tini) -s --"
		WATCH_JOBS_WRAPPER=$w BUILD=$B timeout 120 "$JOBS" >"$dir/jobs" 2>&1
		n=$(grep -c '^part .*: ok' "$dir/jobs")
		how=$(sed -n 's/^part .*: ok \(.*\)$/\1/p' "$dir/jobs" | sort -u | tr '\n' ' ' | sed 's/ $//')
		[ -n "$how" ] && how=", stops with $how"
		[ -n "$mode" ] && printf '; %s: ' "$mode"
		if [ "$n" = 4 ]; then
			printf 'yes%s' "$how"
		else
			printf 'no: %s/4 parts%s' "$n" "$how"
		fi
	done
	echo
}

row_grace() {
	p=$(prefix "$1" grace)
	[ -n "$p" ] || { echo "no option"; return; }
	rm -f "$dir/go"
	mkfifo "$dir/go" "$dir/hold" 2>/dev/null
	exec 5<>"$dir/hold"
	# shellcheck disable=SC2086
	$p sh -c 'trap "" TERM; echo $$ >"$1"; exec cat <"$2"' sh "$dir/go" "$dir/hold" \
		>/dev/null 2>&1 </dev/null &
	wpid=$!
	c=$(timeout 10 head -n 1 "$dir/go")
	kill -TERM "$wpid"
	bounded_wait "$wpid" 3
	[ -n "$c" ] && kill -KILL "$c" 2>/dev/null
	exec 5<&-
	[ "$rc" = 137 ] && echo "yes$(option "$1" grace)" || echo "no: $rc"
}

# shutdown_check PREFIX HOW WRAPPER MODE: as PID 1 of a new pid namespace, COMMAND
# starts a daemon (setsid) and an orphan (its parent exits at once), each
# noting a SIGTERM in a file; then COMMAND exits (HOW exit), or the wrapper
# gets SIGTERM from outside, as from `docker stop` (HOW term). Which of the
# two got SIGTERM before the namespace ended? (The kernel SIGKILLs what is
# left when PID 1 exits.)
shutdown_check() {
	rm -rf "$dir/sd"
	mkdir "$dir/sd"
	mkfifo "$dir/sd/hold"
	exec 6<>"$dir/sd/hold"
	cat >"$dir/sd/member.sh" <<'MEMBER'
trap 'echo TERM >"$D/$1"; exit 0' TERM
: >"$D/ready.$1"
while :; do read -r x <"$D/hold"; done
MEMBER
	cat >"$dir/sd/command.sh" <<'COMMAND'
setsid sh "$D/member.sh" daemon &
(sh "$D/member.sh" orphan &)
i=0
while { [ ! -e "$D/ready.daemon" ] || [ ! -e "$D/ready.orphan" ]; } && [ $i -lt 500 ]; do
	sleep 0.01
	i=$((i + 1))
done
: >"$D/up"
[ "$1" = exit ] && exit 0
read -r x <"$D/hold"
COMMAND
	# shellcheck disable=SC2086 # the prefix is a command line
	D=$dir/sd unshare -fpm --mount-proc $1 sh "$dir/sd/command.sh" "$2" \
		>/dev/null 2>&1 </dev/null 6>&- &
	u=$!
	i=0
	while [ ! -e "$dir/sd/up" ] && [ $i -lt 1000 ]; do
		sleep 0.01
		i=$((i + 1))
	done
	if [ "$2" = term ]; then
		w=$(cat "/proc/$u/task/$u/children" 2>/dev/null | cut -d ' ' -f 1)
		[ -n "$w" ] && kill -TERM "$w"
	fi
	bounded_wait "$u" 20
	exec 6<&-
	d=no o=no
	[ -s "$dir/sd/daemon" ] && d=yes
	[ -s "$dir/sd/orphan" ] && o=yes
	case $rc:$d$o in
	999:*) echo "no: still running after 20 s" ;;
	*:yesyes) echo "yes: both$(option "$3" "$4")" ;;
	*:nono) echo "no: neither (SIGKILL as the namespace ends)" ;;
	*:yesno) echo "no: the daemon only$(option "$3" "$4")" ;;
	*:noyes) echo "no: the orphan only$(option "$3" "$4")" ;;
	esac
}

# Each with its option for COMMAND's group, but sigfd-watch, which needs
# none as PID 1.
row_pid1_exit() {
	[ "$(id -u)" = 0 ] || { echo "not measured (needs root)"; return; }
	m=group
	[ "$1" = sigfd-watch ] && m=plain
	shutdown_check "$(prefix "$1" $m)" exit "$1" $m
}

row_pid1_stop() {
	[ "$(id -u)" = 0 ] || { echo "not measured (needs root)"; return; }
	m=group
	[ "$1" = sigfd-watch ] && m=plain
	shutdown_check "$(prefix "$1" $m)" term "$1" $m
}

# names HEX: the signals of a /proc mask, as "USR2 TSTP".
names() {
	m=$((0x$1)) n=1 out=
	while [ "$m" != 0 ]; do
		[ $((m & 1)) = 1 ] && out="$out $(kill -l $n)"
		m=$((m >> 1)) n=$((n + 1))
	done
	echo "${out# }"
}

# mask_of KEY FILE: the hex of SigBlk or SigIgn in a copy of /proc/PID/status.
mask_of() { sed -n "s/^$1:[[:space:]]*//p" "$2"; }

row_mask() {
	# Every other action the default, whatever this script inherited.
	env --default-signal --block-signal=USR2 --ignore-signal=HUP cat /proc/self/status >"$dir/want"
	# shellcheck disable=SC2046
	env --default-signal --block-signal=USR2 --ignore-signal=HUP $(prefix "$1" plain) \
		cat /proc/self/status \
		>"$dir/got" 2>/dev/null
	out=
	for k in SigBlk SigIgn; do
		# Signals 32-34 are the C library's own, left out: env cannot
		# reset them, and a sanitizer's runtime may install a handler
		# for one in a forked child (TSan: 33), which exec then turns
		# from ignored to default whatever the wrapper does.
		w=$(mask_of $k "$dir/want") g=$(mask_of $k "$dir/got")
		w=$((0x$w & ~0x380000000)) g=$((0x$g & ~0x380000000))
		[ "$w" = "$g" ] && continue
		lost=$(names "$(printf '%x' $((w & ~g)))")
		extra=$(names "$(printf '%x' $((g & ~w)))")
		word=blocked
		[ $k = SigIgn ] && word=ignored
		[ -n "$lost" ] && out="$out; $lost no longer $word"
		[ -n "$extra" ] && out="$out; $extra $word too"
	done
	[ -z "$out" ] && echo "yes (USR2 blocked, HUP ignored)" || echo "no: ${out#; }"
}

row_log() {
	p=$(prefix "$1" log)
	rm -f "$dir/probe" "$dir/ready" "$dir/sender"
	mkfifo "$dir/ready"
	# shellcheck disable=SC2086
	# Both outputs: tini logs on standard output.
	$p "$SW" -c 1 -o "$dir/probe" USR1 >"$dir/log" 2>&1 </dev/null &
	wpid=$!
	# The probe's watching line comes through the wrapper's stderr here.
	i=0
	while ! grep -q "watching pid" "$dir/log" 2>/dev/null && [ $i -lt 500 ]; do
		sleep 0.01
		i=$((i + 1))
	done
	probe_pid=$(sed -n 's/.*watching pid \([0-9]*\) for.*/\1/p' "$dir/log" | tail -n 1)
	# The sender lives on until the wrapper has logged: a sender gone by
	# then is rightly logged as gone, which is another row's matter.
	rm -f "$dir/hold"
	mkfifo "$dir/hold"
	sh -c 'echo $$ >"$2"; kill -USR1 "$1"; read -r _ <"$3"' sh "$wpid" "$dir/sender" "$dir/hold" &
	holder=$!
	probe_end
	echo done >"$dir/hold"
	wait "$holder"
	s=$(cat "$dir/sender")
	if grep -q "SIGUSR1 kill pid=$s comm=sh uid=" "$dir/log"; then
		echo "yes: pid, command, uid, user"
	elif grep -q "$s" "$dir/log"; then
		echo "sender's pid"
	elif grep -qiE 'user defined signal 1|signal 10|SIGUSR1' "$dir/log"; then
		echo "the signal, not the sender"
	else
		echo no
	fi
}

wrappers="sigfd-watch tini dumb-init catatonit"
header="| |"
rule="|---|"
for w in $wrappers; do
	case $w in
	sigfd-watch) v=$("$SW" --version | sed 's/.* //') ;;
	tini) v=$(tini --version 2>/dev/null | sed -n 's/.*version \([0-9.]*\).*/\1/p') ;;
	dumb-init) v=$(dumb-init --version 2>&1 | sed -n 's/.*v\([0-9.]*\).*/\1/p') ;;
	catatonit) v=$(catatonit --version 2>/dev/null | sed -n 's/.*version \([0-9.]*\).*/\1/p') ;;
	esac
	header="$header $w ${v:-} |"
	rule="$rule---|"
done
echo "$header"
echo "$rule"
for r in "forward:forwards a signal (SIGUSR1) to COMMAND" \
	"queued:a queued value (sigqueue 42) reaches COMMAND" \
	"group:to COMMAND's process group (a grandchild)" \
	"queued_group:a queued value (sigqueue 42) to COMMAND's process group (a grandchild)" \
	"status:exit status: exit 3; killed by SIGTERM" \
	"remap:maps exit status 143 to 0" \
	"rewrite:rewrites SIGTERM to SIGQUIT" \
	"pid1:reaps orphans as PID 1 (unshare -fp)" \
	"subreaper:reaps orphans as a subreaper" \
	"jobs:job control in bash: Ctrl-Z/fg/Ctrl-C, Ctrl-Z/bg/fg, background read, tostop write" \
	"grace:SIGKILL when COMMAND ignores SIGTERM (0.5 s)" \
	"mask:COMMAND's signal mask and ignored set as started" \
	"log:logs who sent a signal" \
	"pid1_exit:as PID 1, COMMAND exits: a setsid daemon and an adopted orphan get SIGTERM" \
	"pid1_stop:as PID 1, SIGTERM to the wrapper (docker stop): the same two get SIGTERM"; do
	fn=${r%%:*}
	line="| ${r#*:} |"
	for w in $wrappers; do
		if have "$w"; then
			cell=$("row_$fn" "$w")
		else
			cell="not installed"
		fi
		line="$line $cell |"
	done
	echo "$line"
done
