#!/bin/sh
# SPDX-License-Identifier: MIT
# /init of the patched-kernel guest (busybox): runs the kernel selftest
# (/t/selftest), the share suite (/t/share), the module's semantic tests
# that apply to SFD_CREATOR (/t/kmod) and the rest of /t, all with
# SIGFD_BACKEND=native, then the extra commands, and powers off.
. /common.sh
guest_setup
guest_tests native
guest_extra_run
guest_end
