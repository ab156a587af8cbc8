# SPDX-License-Identifier: MIT
# The command-line tools: sigfd-watch, and sigfd-send, its helper for
# sending signals with a queued value (tests, demo).
TOOL_BINS += $(B)/bin/sigfd-watch $(B)/bin/sigfd-send
$(eval $(call program,$(B)/bin/sigfd-watch,tools/sigfd-watch.c tools/signame.c tools/describe.c))
$(eval $(call program,$(B)/bin/sigfd-send,tools/sigfd-send.c tools/signame.c))
