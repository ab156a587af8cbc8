# SPDX-License-Identifier: MIT
# The tests of tests/tools/ linked with sources of tools/ besides the library.
# The origin-word table, tested on records built by hand.
$(eval $(call program,$(B)/tests/tools/describe_origin,tests/tools/describe_origin.c tools/describe.c tools/sender.c tools/signame.c))
# --trace's parser and process tree, on recorded lines.
$(eval $(call program,$(B)/tests/tools/watch_trace_parse,tests/tools/watch_trace_parse.c tools/trace_parse.c))
