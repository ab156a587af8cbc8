# SPDX-License-Identifier: MIT
# tests/examples/preload/late_children.c: a shared object preloaded into the
# libuv example (tests/examples/example_libuv_sigchld_reset.sh), built when
# that example is. Built plain, without the sanitizers: AddressSanitizer's
# runtime must be the first object loaded, and a preload comes before it.
LATE_CHILDREN_SO := $(B)/tests/examples/preload/late_children.so
ifneq ($(filter libuv-loop,$(EVENT_LOOPS_BUILT)),)
all: $(LATE_CHILDREN_SO)
endif
$(LATE_CHILDREN_SO): tests/examples/preload/late_children.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) -O2 -fPIC -shared -o $@ $< -ldl
