# SPDX-License-Identifier: MIT
# The origin-word table, tested on records built by hand.
$(eval $(call program,$(B)/tests/describe_origin,tests/describe_origin.c tools/describe.c tools/sender.c tools/signame.c))
