# SPDX-License-Identifier: MIT
# The outside suites' adapter (tests/tiers/outside/signalfd_shim.c): a shared
# object preloaded into programs written by others (tests/tiers/outside_suites.sh).
# The library's objects are linked into it, not libsigfd.so: their calls to
# signalfd() must reach the C library's (--wrap=signalfd, see the source),
# and through libsigfd.so they would bind to the shim's own.
OUTSIDE_SHIM := $(B)/tests/tiers/outside/signalfd_shim.so
all: $(OUTSIDE_SHIM)
$(B)/obj/tests/tiers/outside/signalfd_shim.o: ALL_CFLAGS += -fPIC -fvisibility=hidden
$(OUTSIDE_SHIM): $(B)/obj/tests/tiers/outside/signalfd_shim.o $(LIB_A) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -shared -Wl,--wrap=signalfd -o $@ $(filter-out $(FLAGS_STAMP),$^) -ldl
