# SPDX-License-Identifier: MIT
# The tests of tests/backend/ with link flags or helpers of their own.
BACKEND_T := $(B)/tests/backend

# They hold the forwarding thread at a gate, fail its next write, or play
# a kernel with SFD_CREATOR (see each test).
$(BACKEND_T)/forwarder_start_waits: ALL_LDFLAGS += -Wl,--wrap=pthread_create
REFUSED_WRITE_T := forwarder_requeue_fields forwarder_refused_write_order forwarder_held_unmasked_order
$(addprefix $(BACKEND_T)/,$(REFUSED_WRITE_T)): ALL_LDFLAGS += -Wl,--wrap=sendmmsg
$(BACKEND_T)/native_backend_sim: ALL_LDFLAGS += -Wl,--wrap=signalfd
$(BACKEND_T)/forwarder_coalesce_closing $(BACKEND_T)/forwarder_requeue_full_queue $(BACKEND_T)/forwarder_reroute_gone $(BACKEND_T)/forwarder_requeue_door_closed: ALL_LDFLAGS += -Wl,--wrap=read
$(BACKEND_T)/forwarder_reroute_gone $(BACKEND_T)/forwarder_unblocked_walk $(BACKEND_T)/tasks_listing_past_256: ALL_LDFLAGS += -Wl,--wrap=syscall
$(BACKEND_T)/forwarder_failed_start_two_callers: ALL_LDFLAGS += -Wl,--wrap=syscall -Wl,--wrap=pthread_cond_wait
$(BACKEND_T)/forwarder_requeue_door_closed: ALL_LDFLAGS += -Wl,--wrap=syscall
$(BACKEND_T)/forwarder_unblocked_torn_status: ALL_LDFLAGS += -Wl,--wrap=pread
$(BACKEND_T)/forwarder_room_unwatched: ALL_LDFLAGS += -Wl,--wrap=epoll_ctl
$(BACKEND_T)/forwarder_small_sndbuf: ALL_LDFLAGS += -Wl,--wrap=setsockopt
$(BACKEND_T)/forwarder_raw_fork_handoff: ALL_LDFLAGS += -Wl,--wrap=sendmsg

# fault_inject: the library's calls that can fail go through wrappers of
# the test's own (-Wl,--wrap), so any one of them can be made to fail.
FAULT_WRAPPED := socketpair signalfd epoll_create1 epoll_ctl pthread_create calloc free fcntl fstat open syscall sendmsg
$(BACKEND_T)/fault_inject: ALL_LDFLAGS += $(addprefix -Wl$(comma)--wrap=,$(FAULT_WRAPPED))

# plugin/with_sigfd.c: a plugin linking its own copy of the static
# library, loaded and unloaded by forwarder_dlclose_plugin.c.
PLUGIN_SO := $(BACKEND_T)/plugin/with_sigfd.so
all: $(PLUGIN_SO)
$(BACKEND_T)/forwarder_dlclose_plugin: ALL_LDFLAGS += -ldl
$(BACKEND_T)/forwarder_dlclose_plugin: | $(PLUGIN_SO)
$(PLUGIN_SO): tests/backend/plugin/with_sigfd.c $(LIB_A) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -fPIC -shared -o $@ $< $(LIB_A) $(ALL_LDFLAGS)
