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
$(eval $(call program,$(B)/bin/sigfd-watch,tools/sigfd-watch.c tools/watch_say.c tools/watch_log.c tools/watch_run.c tools/watch_jobs.c tools/watch_shutdown.c tools/watch_reap.c tools/watch_procs.c tools/watch_trace.c tools/trace_parse.c tools/describe.c tools/sender.c $(TOOL_SRCS),,$(TOOLS_LIB)))
$(eval $(call program,$(B)/bin/sigfd-send,tools/sigfd-send.c $(TOOL_SRCS),,$(TOOLS_LIB)))
# --version prints the release the Makefile names.
$(B)/obj/tools/args.o: ALL_CFLAGS += -DSIGFD_TOOLS_VERSION='"$(VERSION)"'
