# SPDX-License-Identifier: MIT
# The command-line tools: sigfd-watch, and sigfd-send, its companion for
# sending signals the way kill(1) does, or with a queued value.
# TOOLS_LINK=shared links them to libsigfd.so.0, as Debian's sigfd-tools
# (depending on libsigfd0) is; by default to libsigfd.a, so that they run
# from the build tree, in the static QEMU guest and with LDFLAGS=-static.
TOOLS_LINK ?= static
ifeq ($(TOOLS_LINK),shared)
TOOLS_LIB := $(LIB_SO)
ifneq ($(filter -static,$(LDFLAGS)),)
$(error TOOLS_LINK=shared and LDFLAGS=-static: pick one)
endif
else ifeq ($(TOOLS_LINK),static)
TOOLS_LIB := $(LIB_A)
else
$(error TOOLS_LINK is static or shared, not '$(TOOLS_LINK)')
endif
TOOL_BINS += $(B)/bin/sigfd-watch $(B)/bin/sigfd-send
TOOL_SRCS := tools/args.c tools/signame.c
$(eval $(call program,$(B)/bin/sigfd-watch,tools/sigfd-watch.c tools/watch_records.c tools/watch_deadline.c tools/watch_say.c tools/watch_log.c tools/watch_run.c tools/watch_jobs.c tools/watch_shutdown.c tools/watch_reap.c tools/watch_procs.c tools/watch_trace.c tools/trace_parse.c tools/watch_env.c tools/describe.c tools/sender.c $(TOOL_SRCS),,$(TOOLS_LIB)))
$(eval $(call program,$(B)/bin/sigfd-send,tools/sigfd-send.c $(TOOL_SRCS),,$(TOOLS_LIB)))
# --version prints the release the Makefile names.
$(B)/obj/tools/args.o: ALL_CFLAGS += -DSIGFD_TOOLS_VERSION='"$(VERSION)"'

# make static: sigfd-watch and sigfd-send linked statically with musl
# (apt-get install musl-tools) and stripped, for container images
# (examples/container/Dockerfile): build/static/bin/. A build directory of
# its own, so no pass of the suite has its objects rebuilt. make
# static-check also runs tests/tools/watch_static.sh on them: 13 s here from
# nothing (2 loaded cores), too slow for each of CI's six passes of the
# suite, so .ci/run runs it once; make check says SKIPPED until it exists.
STATIC_CC      ?= musl-gcc
STATIC_LDFLAGS ?= -static -s
.PHONY: static static-check
static:
	@command -v $(firstword $(STATIC_CC)) >/dev/null 2>&1 || \
	    { echo "make static: $(STATIC_CC) not found (apt-get install musl-tools)" >&2; exit 2; }
	$(MAKE) B=build/static CC='$(STATIC_CC)' LDFLAGS='$(STATIC_LDFLAGS)' SANITIZE= TOOLS_LINK=static \
	    build/static/bin/sigfd-watch build/static/bin/sigfd-send
static-check: static
	@sh tests/tools/watch_static.sh
