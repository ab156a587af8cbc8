# SPDX-License-Identifier: MIT
# The command-line tools: sigfd-watch, and sigfd-send, its companion for
# sending signals the way kill(1) does, or with a queued value.
TOOL_BINS += $(B)/bin/sigfd-watch $(B)/bin/sigfd-send
TOOL_SRCS := tools/args.c tools/signame.c
$(eval $(call program,$(B)/bin/sigfd-watch,tools/sigfd-watch.c tools/watch_say.c tools/watch_log.c tools/watch_run.c tools/watch_jobs.c tools/watch_shutdown.c tools/describe.c tools/sender.c $(TOOL_SRCS)))
$(eval $(call program,$(B)/bin/sigfd-send,tools/sigfd-send.c $(TOOL_SRCS)))
# --version prints the release the Makefile names.
$(B)/obj/tools/args.o: ALL_CFLAGS += -DSIGFD_TOOLS_VERSION='"$(VERSION)"'
