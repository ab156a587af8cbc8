# SPDX-License-Identifier: MIT
# What the two QEMU guest tiers (kmod/guest-run.sh, kernel/run.sh) build the
# same way, sourced by both from the project's top directory. Each caller
# sets $out (its build directory), CFLAGS_GUEST and die().

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
# background (static links are slow: one job per program, all at once);
# guest_programs_wait collects the failures.
guest_program() {
	src=$1 dest=$2
	shift 2
	name=$(basename "$src" .c)
	{
		gcc $CFLAGS_GUEST "$@" -static -o "$dest" "$src" "$out/libsigfd.a" \
			2>"$out/obj/$name.log" || echo "$src" >>"$out/obj/failed"
	} &
}

guest_programs_wait() {
	wait
	[ -s "$out/obj/failed" ] || return 0
	for src in $(cat "$out/obj/failed"); do cat "$out/obj/$(basename "$src" .c).log" >&2; done
	die "cannot build: $(tr '\n' ' ' <"$out/obj/failed")"
}

# Suite "model": the model-based differential test and the soak driver
# (fuzz/), share mode on the guest's backend. $1 sequences, $2 seconds.
guest_model_suite() {
	mkdir -p "$out/root/t/model"
	guest_program fuzz/model_diff.c "$out/root/x/model_diff"
	guest_program fuzz/soak.c "$out/root/x/soak"
	printf '#!/bin/sh\nexec /x/model_diff --mode share --first 1 --seeds %s --ops 150\n' "$1" \
		>"$out/root/t/model/model_diff"
	printf '#!/bin/sh\nexec /x/soak --seconds %s --seed 1\n' "$2" >"$out/root/t/model/soak"
	chmod 755 "$out/root/t/model/model_diff" "$out/root/t/model/soak"
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

# The root's busybox: every applet, /sbin and /usr/*bin pointing at /bin.
guest_busybox() {
	r=$out/root
	mkdir -p "$r/bin" "$r/proc" "$r/sys" "$r/dev" "$r/tmp"
	cp /bin/busybox "$r/bin/busybox"
	for applet in $(/bin/busybox --list); do
		[ -e "$r/bin/$applet" ] || ln -s busybox "$r/bin/$applet"
	done
	for d in sbin usr/bin usr/sbin; do
		mkdir -p "$(dirname "$r/$d")" && ln -sfn /bin "$r/$d"
	done
}

# /config for the guest's /init: guest_config TEST_TIMEOUT EXTRA_TIMEOUT
# ONLY EXTRA_RUN EXTRA... (EXTRA_RUN empty: run each extra program bare).
guest_config() {
	echo "TEST_TIMEOUT=$1"
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
