# SPDX-License-Identifier: MIT
# The origin-word table, tested on records built by hand.
$(eval $(call program,$(B)/tests/describe_origin,tests/describe_origin.c tools/describe.c tools/sender.c tools/signame.c))
# --trace's parser and process tree, on recorded lines.
$(eval $(call program,$(B)/tests/watch_trace_parse,tests/watch_trace_parse.c tools/trace_parse.c))
