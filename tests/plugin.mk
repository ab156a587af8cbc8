# SPDX-License-Identifier: MIT
# tests/plugin/with_sigfd.c: a plugin linking its own copy of the static
# library, loaded and unloaded by tests/forwarder_dlclose_plugin.c.
PLUGIN_SO := $(B)/tests/plugin/with_sigfd.so
all: $(PLUGIN_SO)
$(B)/tests/forwarder_dlclose_plugin: | $(PLUGIN_SO)
$(PLUGIN_SO): tests/plugin/with_sigfd.c $(LIB_A) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -fPIC -shared -o $@ $< $(LIB_A) $(ALL_LDFLAGS)
