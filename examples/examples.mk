# SPDX-License-Identifier: MIT
# The event-loop examples, each a complete program with a library of its own:
# built into $(B)/examples with the others (make all) when pkg-config knows
# the library and $(CC) links it (not musl-gcc against glibc's libglib);
# left out otherwise, and their tests (tests/examples/example_*_loop.sh) say SKIPPED.
# The answers are kept in $(B)/examples/event-loops.mk, asked again when the
# build's flags or dpkg's state change. NAME:PKG-CONFIG-NAME each. The probe
# runs in the build directory: under --coverage it leaves a .gcno behind.
EVENT_LOOP_EXAMPLES := libuv-loop:libuv libevent-loop:libevent glib-loop:glib-2.0 sd-event-loop:libsystemd
EXAMPLES_APART      := $(foreach e,$(EVENT_LOOP_EXAMPLES),examples/$(firstword $(subst :, ,$(e))).c)
EVENT_LOOPS_MK      := $(B)/examples/event-loops.mk

$(EVENT_LOOPS_MK): examples/examples.mk $(FLAGS_STAMP) $(wildcard /var/lib/dpkg/status)
	@mkdir -p $(@D)
	@for e in $(EVENT_LOOP_EXAMPLES); do \
	    name=$${e%%:*} pc=$${e#*:}; \
	    if flags=$$(pkg-config --cflags --libs $$pc 2>/dev/null) && \
	        printf 'int main(void) { return 0; }\n' | \
	        (cd $(@D) && $(CC) $(SANFLAGS) $(LDFLAGS) -x c -o /dev/null - $$flags) >/dev/null 2>&1; then \
	        echo "EVENT_LOOPS_BUILT += $$name"; \
	        echo "EVENT_LOOP_CFLAGS_$$name := $$(pkg-config --cflags $$pc)"; \
	        echo "EVENT_LOOP_LIBS_$$name := $$(pkg-config --libs $$pc)"; \
	    fi; \
	done >$@.tmp.$$$$ && mv $@.tmp.$$$$ $@
-include $(EVENT_LOOPS_MK)

define event_loop_example
$(B)/obj/examples/$(1).o: ALL_CFLAGS += $(EVENT_LOOP_CFLAGS_$(1))
$(B)/examples/$(1): $(B)/obj/examples/$(1).o $(LIB_A) $(FLAGS_STAMP)
	@mkdir -p $$(@D)
	$$(CC) $$(ALL_LDFLAGS) -o $$@ $$(filter-out $(FLAGS_STAMP),$$^) $(EVENT_LOOP_LIBS_$(1))
all: $(B)/examples/$(1)
endef
$(foreach n,$(EVENT_LOOPS_BUILT),$(eval $(call event_loop_example,$(n))))
