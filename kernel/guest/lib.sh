# SPDX-License-Identifier: MIT
# What the two QEMU guest tiers (kmod/guest-run.sh, kernel/run.sh) do the
# same way on the host (build the programs and the initramfs, boot, judge),
# sourced by both from the project's top directory. Each caller sets $out
# (its build directory), CFLAGS_GUEST and die().

# libsigfd.a for static guest programs, in $out.
guest_library() {
	for src in src/*.c; do
		gcc $CFLAGS_GUEST -c -o "$out/obj/$(basename "$src" .c).o" "$src" ||
			die "cannot build $src"
	done
	rm -f "$out/libsigfd.a"
	ar rcs "$out/libsigfd.a" "$out"/obj/*.o
}

# guest_program SRC DEST [CFLAGS...]: link SRC statically to DEST in the
# background, at most GUEST_JOBS (the CPUs) at a time: once that many are
# out, all are waited for (sh has no wait -n; the links take about as long
# as each other). guest_programs_wait collects the failures.
guest_jobs=0
guest_program() {
	src=$1 dest=$2
	shift 2
	name=$(basename "$src" .c)
	{
		gcc $CFLAGS_GUEST "$@" -static -o "$dest" "$src" "$out/libsigfd.a" \
			2>"$out/obj/$name.log" || echo "$src" >>"$out/obj/failed"
	} &
	guest_jobs=$((guest_jobs + 1))
	if [ "$guest_jobs" -ge "${GUEST_JOBS:-$(nproc)}" ]; then
		wait
		guest_jobs=0
	fi
}

# guest_tier_sources TIER: the programs of every tests/ folder that
# tests/folders gives TIER, tests/FOLDER/NAME.c: each runs as FOLDER/NAME.
guest_tier_sources() {
	for d in $(awk -v tier="$1" '{ sub(/#.*/, "") } NF { for (i = 2; i <= NF; i++) if ($i == tier) print $1 }' tests/folders); do
		for src in tests/"$d"/*.c; do
			[ -f "$src" ] && echo "$src"
		done
	done
}

guest_programs_wait() {
	wait
	guest_jobs=0
	[ -s "$out/obj/failed" ] || return 0
	for src in $(cat "$out/obj/failed"); do cat "$out/obj/$(basename "$src" .c).log" >&2; done
	die "cannot build: $(tr '\n' ' ' <"$out/obj/failed")"
}

# Suite "model": the model-based differential test and the soak driver
# (fuzz/), share mode on the guest's backend: $1 sequences, ending early
# after $3 seconds (half the per-test limit: a loaded host slows the guest
# down, and a budget spent is no failure), and $2 seconds of soak.
guest_model_suite() {
	mkdir -p "$out/root/t/model"
	guest_program fuzz/model_diff.c "$out/root/x/model_diff"
	guest_program fuzz/soak.c "$out/root/x/soak"
	printf '#!/bin/sh\nexec /x/model_diff --mode share --first 1 --seeds %s --seconds %s --ops 150\n' \
		"$1" "$3" >"$out/root/t/model/model_diff"
	printf '#!/bin/sh\nexec /x/soak --seconds %s --seed 1\n' "$2" >"$out/root/t/model/soak"
	chmod 755 "$out/root/t/model/model_diff" "$out/root/t/model/soak"
}

# Suite "stress": the race-stress programs of kernel/stress/, $1 seconds
# each (make kdebug-check: the debug kernels judge them by their dmesg).
guest_stress_suite() {
	mkdir -p "$out/root/t/stress"
	for src in kernel/stress/*.c; do
		name=$(basename "$src" .c)
		guest_program "$src" "$out/root/x/$name"
		printf '#!/bin/sh\nexec /x/%s %s\n' "$name" "$1" >"$out/root/t/stress/$name"
		chmod 755 "$out/root/t/stress/$name"
	done
}

# guest_extra NAME FILE...: copy the extra programs to /x, or die naming NAME.
guest_extra() {
	what=$1
	shift
	for x in "$@"; do
		[ -f "$x" ] || die "$what: no such file: $x"
		cp "$x" "$out/root/x/"
	done
}

# The root: busybox with every applet, /sbin and /usr/*bin pointing at
# /bin, and the guest side's shared steps (kernel/guest/common.sh).
guest_root() {
	r=$out/root
	mkdir -p "$r/bin" "$r/proc" "$r/sys" "$r/dev" "$r/tmp"
	cp /bin/busybox "$r/bin/busybox"
	for applet in $(/bin/busybox --list); do
		[ -e "$r/bin/$applet" ] || ln -s busybox "$r/bin/$applet"
	done
	for d in sbin usr/bin usr/sbin; do
		mkdir -p "$(dirname "$r/$d")" && ln -sfn /bin "$r/$d"
	done
	cp kernel/guest/common.sh "$r/common.sh"
}

# /config for the guest's /init: guest_config TEST_TIMEOUT EXTRA_TIMEOUT
# ONLY EXTRA_RUN EXTRA... (EXTRA_RUN empty: run each extra program bare);
# GUEST_FLOOD_COUNT: the signals kmod/tests/flood_100000 sends.
guest_config() {
	echo "TEST_TIMEOUT=$1"
	echo "FLOOD_COUNT=${GUEST_FLOOD_COUNT:-100000}"
	echo "EXTRA_TIMEOUT=$2"
	printf 'ONLY=%s\n' "'$3'"
	run=$4
	shift 4
	if [ -z "$run" ]; then
		for x in "$@"; do run="$run$(basename "$x");"; done
	fi
	printf 'EXTRA_RUN=%s\n' "'$run'"
}

guest_initramfs() {
	(cd "$out/root" && find . | cpio -o -H newc --quiet | gzip -1) >"$out/initramfs.cpio.gz"
}

# guest_boot TIMEOUT CPUS MIB KERNEL [ARGS]: the kernel under QEMU (TCG: KVM
# is unusable on these hosts) with $out's initramfs and ARGS added to its
# command line; the console in $out/console.log, QEMU's status in
# $out/qemu.rc, the milliseconds it took in $ms. The boot and each test's
# result are told (the caller's note) as the console shows them.
guest_boot() {
	start=$(date +%s%N)
	rm -f "$out/qemu.rc"
	echo "$2" >"$out/cpus"
	{
		# Its status whatever it is: set -e would end this subshell first.
		rc=0
		timeout -k 5 "$1" qemu-system-x86_64 -accel tcg -smp "$2" -m "$3" -nic none -nographic \
			-no-reboot -kernel "$4" -initrd "$out/initramfs.cpio.gz" \
			-append "console=ttyS0 panic=-1 oops=panic quiet ${5:-}" </dev/null 2>&1 || rc=$?
		echo $rc >"$out/qemu.rc"
	} | sed -u 's/\r//g' | tee "$out/console.log" |
		sed -un 's/^GUEST-BEGIN \([^ ]*\) .*/guest: Linux \1 booted/p; s/^GUEST-RESULT: /guest: /p' |
		while IFS= read -r line; do note "$line"; done
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
}

# guest_judge BACKEND RMMOD: read the console log, print the per-test report;
# the status is the verdict. The entries of tests/known-differences for
# BACKEND are the tests whose failure is expected (XFAIL; XPASS when they
# pass), whatever its shape; RMMOD=1: the module must unload at the end.
guest_judge() {
	awk -v qemu_rc="$(cat "$out/qemu.rc")" -v need_rmmod="$2" -v backend="$1" -v cpus="$(cat "$out/cpus")" '
	FILENAME != "-" && FNR == NR {
		if ($0 !~ /^#/ && split($0, f, / [|] /) >= 4 && f[1] == backend) {
			why = f[4]
			for (i = 5; i in f; i++) why = why " | " f[i]
			if (!(f[2] in known)) known[f[2]] = why
		}
		next
	}
	/^GUEST-BEGIN / {
		sub(/^init-at=/, "", $4); print "guest: Linux " $2 ", " $3 ", /init reached " $4 " after boot"
		# Races need every CPU asked for: a kernel that finds fewer fails.
		if ($3 != "cpus=" cpus) { printf "FAIL: the guest has %s, %s asked for\n", $3, cpus; cpus_bad = 1 }
		next
	}
	/^GUEST-RESULT: / {
		name = $2; verdict = $3; seen[name] = 1; skip = 1
		if (verdict == "PASS" && (name in known)) { pass++; printf "XPASS %s (%s; listed as a known difference)\n", name, $4 }
		else if (verdict == "PASS") { pass++; printf "PASS %s (%s)\n", name, $4 }
		else if (name in known) { xfail++; printf "XFAIL %s (%s: %s)\n", name, $4, known[name] }
		else { fail++; failed = failed " " name; printf "FAIL %s (%s, %s)\n", name, $4, $5; skip = 0 }
		next
	}
	/^GUEST-EXPECT: / { for (i = 2; i <= NF; i++) expect[$i] = 1; next }
	/^GUEST-SELFTEST: / { sub(/^GUEST-SELFTEST: /, "  selftest "); print; next }
	/^    / { print; next }
	/^GUEST-OUT: / { if (!skip) { sub(/^GUEST-OUT: /, "    "); print }; next }
	/^GUEST-(EXTRA-OUT|INFO): / { sub(/^GUEST-[A-Z-]+: /, "  | "); print; next }
	/^GUEST-RMMOD: ok/ { rmmod = 1; next }
	/^GUEST-RMMOD: / { print; next }
	/^GUEST-DMESG: / { print; kernel_bad = 1; next }
	/^GUEST-INSMOD-FAIL/ { print "FAIL: insmod sigfd.ko"; insmod_bad = 1; next }
	/^GUEST-END/ { ended = 1; next }
	/Kernel panic|Oops|BUG: |WARNING: |general protection fault|Call Trace/ { print "console: " $0; kernel_bad = 1 }
	END {
		for (n in expect) if (!(n in seen)) { missing++; printf "FAIL %s (no result line)\n", n }
		printf "guest: %d passed, %d failed", pass, fail
		if (xfail) printf ", %d known differences (XFAIL)", xfail
		if (missing) printf ", %d without a result", missing
		printf "\n"
		bad = fail || missing || kernel_bad || insmod_bad || cpus_bad || !pass
		if (qemu_rc == 124) { print "FAIL: the guest timed out"; bad = 1 }
		else if (!ended) { print "FAIL: the guest did not finish (panic or crash?)"; bad = 1 }
		if (need_rmmod && ended && !rmmod && !insmod_bad) { print "FAIL: rmmod sigfd at the end"; bad = 1 }
		if (kernel_bad) print "FAIL: the kernel reported a problem (see above)"
		if (failed != "") printf "failed:%s\n", failed
		exit bad ? 1 : 0
	}' tests/known-differences - <"$out/console.log"
}
