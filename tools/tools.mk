# The command-line tools: sigfd-watch, and sigfd-send, its helper for
# sending signals with a queued value (tests, demo).
# This file is included before the Makefile's own first rule: keep `all` the
# default goal rather than the first program defined here.
ifeq ($(.DEFAULT_GOAL),)
.DEFAULT_GOAL := all
endif
TOOL_BINS += $(B)/bin/sigfd-watch $(B)/bin/sigfd-send
$(eval $(call program,$(B)/bin/sigfd-watch,tools/sigfd-watch.c tools/signame.c tools/describe.c))
$(eval $(call program,$(B)/bin/sigfd-send,tools/sigfd-send.c tools/signame.c))
