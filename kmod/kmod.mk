# The kernel-module tier (included by the top Makefile).
#   make kmod         build kmod/sigfd.ko against Debian's cloud kernel headers
#   make kmod-check   build it and the static guest programs, boot the cloud
#                     kernel under QEMU, run kmod/tests/*.c and tests/share_*.c
#                     with SIGFD_BACKEND=kernel; see kmod/guest-run.sh for the
#                     knobs (KVER, KMOD_ONLY, KMOD_EXTRA, KMOD_EXTRA_RUN, ...)
.PHONY: kmod kmod-check
kmod:
	sh kmod/guest-run.sh --build

kmod-check:
	sh kmod/guest-run.sh
