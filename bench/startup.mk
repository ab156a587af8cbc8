# SPDX-License-Identifier: MIT
# make bench-startup: what sigfd-watch (this build and make static's) adds
# to starting /bin/true, beside tini, dumb-init and catatonit, in one run
# (bench/startup/startup.c; ARGS='--quick' for a smoke run, as CI's).
STARTUP_BIN := $(B)/bench/wrapper-startup
$(eval $(call program,$(STARTUP_BIN),bench/startup/startup.c bench/stats.c,-lm))
$(B)/obj/bench/startup/startup.o: $(BENCH_CONFIG)
$(B)/obj/bench/startup/startup.o: ALL_CFLAGS += -Ibench -I$(B)/bench

.PHONY: bench-startup
bench-startup: $(STARTUP_BIN) $(B)/bin/sigfd-watch static
	@$(STARTUP_BIN) --watch $(B)/bin/sigfd-watch --static build/static/bin/sigfd-watch $(ARGS)
