# SPDX-License-Identifier: MIT
# sigfd: GNU make, nothing else. Every build variant (compiler, sanitizer)
# gets its own directory under build/, so `make check CC=clang` after
# `make check` never mixes objects.
#   make                 library, tools, examples into build/<cc>/
#   make check           the whole test suite; as root it first apt-gets the
#                        packages its tiers need (tests/check-deps), otherwise
#                        it names them; SIGFD_NO_INSTALL=1 never installs
#   make check CC=clang  | CC=musl-gcc | SANITIZE=address,undefined | VALGRIND=1
#                        | GUESTS=no (without the two QEMU guest tiers)
#   make demo            builds the tools and runs the scripted demonstration
#   make changelog       debian/changelog from NEWS
#   make static          static sigfd-watch and sigfd-send (musl) in
#                        build/static/bin, for containers; make static-check
#   make deb-check       the Debian packages end to end (debian/deb.mk, root)
#   make install PREFIX=/usr/local   (DESTDIR, LIBDIR, INCDIR, ... honoured);
#                        make uninstall with the same variables
# CPPFLAGS, CFLAGS and LDFLAGS are honoured (dpkg-buildflags); changing any of
# them, CC or SANITIZE rebuilds what they change ($(B)/flags records them).

.DEFAULT_GOAL := all

CC       ?= cc
CFLAGS   ?= -O2 -g
PREFIX   ?= /usr/local
SANITIZE ?=
comma    := ,
VARIANT  := $(notdir $(firstword $(CC)))$(if $(SANITIZE),-$(subst $(comma),-,$(SANITIZE)))
B        := build/$(VARIANT)

# The one source of the version: VERSION. What must carry it literally
# (<sigfd.h>, the man pages' .TH lines) is written by tools/set-version.sh
# and checked by tests/build/version.sh, as debian/changelog is against NEWS.
VERSION  := $(strip $(file <VERSION))
SOMAJOR  := 0

WARN     := -Wall -Wextra -Werror
SANFLAGS := $(if $(SANITIZE),-fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all)
ALL_CFLAGS  = -std=c11 -D_GNU_SOURCE $(WARN) $(CPPFLAGS) $(CFLAGS) $(SANFLAGS) -Iinclude -pthread -MMD -MP
ALL_LDFLAGS = $(LDFLAGS) $(SANFLAGS) -pthread

# Everything that changes an object or a link, one line. The file is
# rewritten only when the line changes, and every object and link depends on
# it, so `make CFLAGS=-O0` after `make` rebuilds instead of mixing. The
# temporary is the shell's own: the suite runs makes on one build at once.
FLAGS_STAMP := $(B)/flags
flags_line   = CC=$(CC) CPPFLAGS=$(CPPFLAGS) CFLAGS=$(CFLAGS) LDFLAGS=$(LDFLAGS) SANITIZE=$(SANITIZE) TOOLS_LINK=$(TOOLS_LINK)
.PHONY: flags-check
$(FLAGS_STAMP): flags-check
	@mkdir -p $(@D)
	@t=$@.tmp.$$$$; printf '%s\n' '$(subst ','\'',$(flags_line))' > $$t && \
	if cmp -s $$t $@; then rm -f $$t; else mv $$t $@; fi

LIB_SRCS := $(wildcard src/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(B)/obj/%.o)
LIB_A    := $(B)/lib/libsigfd.a
# The archive holds one object, every library object linked into one, with
# the hidden (internal) symbols made local: only the PUBLIC API is global, so
# a program's own share_state or share_serve links beside it.
LIB_ONE  := $(B)/obj/libsigfd-all.o
LIB_SO   := $(B)/lib/libsigfd.so.$(VERSION)

# Programs: each is NAME with NAME_SRCS; tools/, examples/, tests/, bench/
# describe theirs in their own .mk file or get one .c file per program.
# A program of several sources: $(eval $(call program,OUTPUT,SOURCES,LIBS)),
# linked to libsigfd.a, or to the library given as a fourth argument.
define program
$(1): $(patsubst %.c,$(B)/obj/%.o,$(2)) $(or $(4),$(LIB_A)) $(FLAGS_STAMP)
	@mkdir -p $$(@D)
	$$(CC) $$(ALL_LDFLAGS) -o $$@ $$(filter-out $(FLAGS_STAMP),$$^) $(3)
endef
TOOL_BINS :=
# A test's own link flags and helpers sit beside it: tests/FOLDER/tests.mk.
include $(sort $(wildcard */*.mk) $(wildcard tests/*/tests.mk))

# Examples with a library of their own are built apart (examples/examples.mk).
EXAMPLES := $(patsubst examples/%.c,$(B)/examples/%,$(filter-out $(EXAMPLES_APART),$(wildcard examples/*.c)))
# Every tests/FOLDER/NAME.c is a test program, $(B)/tests/FOLDER/NAME;
# tests/folders says which tiers run it.
TESTS    := $(patsubst tests/%.c,$(B)/tests/%,$(wildcard tests/*/*.c))

.PHONY: all lib check demo install uninstall clean changelog
# Objects are kept: make would otherwise delete them as intermediates.
.SECONDARY:
all: lib $(TOOL_BINS) $(EXAMPLES) $(TESTS)
lib: $(LIB_A) $(LIB_SO)

$(B)/obj/src/%.o: src/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -fPIC -fvisibility=hidden -c -o $@ $<

$(B)/obj/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The partial link (-r) is of machine code, and the LTO bytecode is dropped:
# objcopy cannot hide names inside it. So with -flto the objects must also
# carry code (-ffat-lto-objects, as dpkg-buildflags gives with LTO on).
$(LIB_ONE): $(LIB_OBJS)
	@mkdir -p $(@D)
	$(CC) -r -nostdlib -fno-lto -o $@ $^
	objcopy --localize-hidden -R '.gnu.lto_*' -R '.gnu.debuglto_*' $@

$(LIB_A): $(LIB_ONE)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(LIB_SO): $(LIB_OBJS) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -shared -Wl,-soname,libsigfd.so.$(SOMAJOR) -Wl,-z,nodelete -o $@ $(LIB_OBJS)
	ln -sf libsigfd.so.$(VERSION) $(B)/lib/libsigfd.so.$(SOMAJOR)
	ln -sf libsigfd.so.$(SOMAJOR) $(B)/lib/libsigfd.so

# Programs link the static library so tests run without LD_LIBRARY_PATH.
$(B)/examples/%: $(B)/obj/examples/%.o $(LIB_A) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $(filter-out $(FLAGS_STAMP),$^)

$(B)/tests/%: $(B)/obj/tests/%.o $(LIB_A) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $(filter-out $(FLAGS_STAMP),$^)
# Tests include tests/check.h and tests/share_util.h from their folders.
$(B)/obj/tests/%.o: ALL_CFLAGS += -Itests

# The packages the suite's tiers need: installed when root, named when not
# (tests/check-deps). Asked again only when dpkg's or apt's state changes.
DEPS_OK := build/check-deps.ok
$(DEPS_OK): tests/check-deps kmod/guest-run.sh kernel/run.sh kernel/kdebug.sh $(wildcard /var/lib/dpkg/status /var/lib/apt/lists)
	@sh tests/check-deps $@

# The one switch for the QEMU guest tiers (the module on 6.1, the patched
# 6.12): GUESTS=no leaves both out of make check, as SIGFD_GUESTS=0 in the
# environment does; a target that runs the suite for something else
# (coverage) says GUESTS=no itself. The tiers then print SKIPPED lines.
GUESTS ?= $(if $(filter 0 no,$(SIGFD_GUESTS)),no,yes)

# One build job a core unless make was given -j itself (clang's build of
# everything: 56 s with one job, 37 s with two).
JOBS = $(if $(findstring --jobserver,$(MAKEFLAGS)),,-j$(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2))

# Tools linked to libsigfd.so.0 (TOOLS_LINK=shared) find it in the build.
check: $(DEPS_OK)
	@$(MAKE) --no-print-directory $(JOBS) all
	@$(if $(filter shared,$(TOOLS_LINK)),LD_LIBRARY_PATH=$(CURDIR)/$(B)/lib$${LD_LIBRARY_PATH:+:$$LD_LIBRARY_PATH}) \
	SIGFD_GUESTS=$(if $(filter no,$(GUESTS)),0,1) \
	BUILD=$(B) VALGRIND=$(VALGRIND) ONLY='$(ONLY)' CC='$(CC)' TEST_CFLAGS='$(SANFLAGS)' sh tests/run-all

# Only what the demo runs.
DEMO_BINS := $(B)/bin/sigfd-watch $(B)/bin/sigfd-send $(B)/examples/listen-in
demo:
	@$(MAKE) --no-print-directory $(JOBS) $(DEMO_BINS)
	@BUILD=$(B) sh tools/demo.sh

# debian/changelog from NEWS (tools/news-to-changelog.sh); tests/build/version.sh
# fails when the two differ.
changelog:
	sh tools/news-to-changelog.sh >debian/changelog.tmp && mv debian/changelog.tmp debian/changelog

DESTDIR ?=
LIBDIR  ?= $(PREFIX)/lib
INCDIR  ?= $(PREFIX)/include
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
PCDIR   ?= $(LIBDIR)/pkgconfig
CMAKEDIR ?= $(LIBDIR)/cmake/sigfd
MAN3    := $(wildcard docs/*.3)
MAN1    := $(wildcard docs/*.1)

# sigfd.pc is written by each install, from the variables of that install,
# never kept in the build directory where an earlier PREFIX would win.
# Directories under PREFIX are written relative to ${prefix}, so
# `pkg-config --define-variable=prefix=...` relocates them.
pc_rel = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))
# sigfdConfig.cmake likewise, from its own place: when CMAKEDIR is under
# PREFIX it finds the prefix as "../" from itself (a DESTDIR-staged or moved
# install works), and names LIBDIR and INCDIR relative to it when under it.
space := $(subst ,, )
cmake_up  = $(subst $(space),,$(foreach c,$(subst /, ,$(patsubst $(PREFIX)/%,%,$(CMAKEDIR))),../))
cmake_pfx = $(if $(filter $(PREFIX)/%,$(CMAKEDIR)),get_filename_component(_sigfd_prefix "$${CMAKE_CURRENT_LIST_DIR}/$(cmake_up)" ABSOLUTE),set(_sigfd_prefix "$(PREFIX)"))
cmake_rel = $(patsubst $(PREFIX)/%,$${_sigfd_prefix}/%,$(1))
SIZEOF_VOID_P = $(shell $(CC) -dM -E -x c /dev/null | sed -n 's/^\#define __SIZEOF_POINTER__ //p')

# The directories an install creates (every missing component of each) are
# written down in build/installed/, one file per set of install variables,
# and make uninstall removes those that are then empty, and no other.
INSTALL_DIRS   = $(INCDIR) $(LIBDIR) $(PCDIR) $(CMAKEDIR) $(BINDIR) $(MANDIR)/man1 $(MANDIR)/man3
INSTALL_RECORD = build/installed/$(shell printf '%s' '$(DESTDIR) $(INSTALL_DIRS)' | cksum | tr ' ' -).dirs

install: lib $(TOOL_BINS)
	@mkdir -p $(dir $(INSTALL_RECORD))
	@for d in $(INSTALL_DIRS); do \
	    while [ "$$d" != / ] && [ ! -d "$(DESTDIR)$$d" ]; do echo "$$d"; d=$$(dirname "$$d"); done; \
	done >>$(INSTALL_RECORD)
	install -d $(addprefix $(DESTDIR),$(INSTALL_DIRS))
	install -m 644 include/sigfd.h $(DESTDIR)$(INCDIR)/sigfd.h
	install -m 644 $(LIB_A) $(DESTDIR)$(LIBDIR)/libsigfd.a
	install -m 755 $(LIB_SO) $(DESTDIR)$(LIBDIR)/libsigfd.so.$(VERSION)
	ln -sf libsigfd.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libsigfd.so.$(SOMAJOR)
	ln -sf libsigfd.so.$(SOMAJOR) $(DESTDIR)$(LIBDIR)/libsigfd.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(call pc_rel,$(LIBDIR))|' \
	    -e 's|@INCDIR@|$(call pc_rel,$(INCDIR))|' -e 's|@VERSION@|$(VERSION)|' \
	    sigfd.pc.in > $(DESTDIR)$(PCDIR)/sigfd.pc
	chmod 644 $(DESTDIR)$(PCDIR)/sigfd.pc
	sed -e 's|@SIGFD_PREFIX@|$(cmake_pfx)|' -e 's|@SIGFD_LIBDIR@|$(call cmake_rel,$(LIBDIR))|' \
	    -e 's|@SIGFD_INCDIR@|$(call cmake_rel,$(INCDIR))|' -e 's|@SIGFD_SOMAJOR@|$(SOMAJOR)|' \
	    cmake/sigfdConfig.cmake.in > $(DESTDIR)$(CMAKEDIR)/sigfdConfig.cmake
	sed -e 's|@SIGFD_VERSION@|$(VERSION)|' -e 's|@SIGFD_SOMAJOR@|$(SOMAJOR)|g' \
	    -e 's|@SIGFD_SIZEOF_VOID_P@|$(SIZEOF_VOID_P)|g' \
	    cmake/sigfdConfigVersion.cmake.in > $(DESTDIR)$(CMAKEDIR)/sigfdConfigVersion.cmake
	chmod 644 $(DESTDIR)$(CMAKEDIR)/sigfdConfig.cmake $(DESTDIR)$(CMAKEDIR)/sigfdConfigVersion.cmake
	$(if $(TOOL_BINS),install -m 755 $(TOOL_BINS) $(DESTDIR)$(BINDIR)/)
	$(if $(MAN1),install -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1/)
	$(if $(MAN3),install -m 644 $(MAN3) $(DESTDIR)$(MANDIR)/man3/)

uninstall:
	rm -f $(DESTDIR)$(INCDIR)/sigfd.h $(DESTDIR)$(PCDIR)/sigfd.pc \
	    $(DESTDIR)$(CMAKEDIR)/sigfdConfig.cmake $(DESTDIR)$(CMAKEDIR)/sigfdConfigVersion.cmake \
	    $(DESTDIR)$(LIBDIR)/libsigfd.a $(DESTDIR)$(LIBDIR)/libsigfd.so \
	    $(DESTDIR)$(LIBDIR)/libsigfd.so.$(SOMAJOR) $(DESTDIR)$(LIBDIR)/libsigfd.so.$(VERSION) \
	    $(addprefix $(DESTDIR)$(BINDIR)/,$(notdir $(TOOL_BINS))) \
	    $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN1))) \
	    $(addprefix $(DESTDIR)$(MANDIR)/man3/,$(notdir $(MAN3)))
	@if [ -f $(INSTALL_RECORD) ]; then \
	    LC_ALL=C sort -ru $(INSTALL_RECORD) | while read -r d; do rmdir "$(DESTDIR)$$d" 2>/dev/null || :; done; \
	    rm -f $(INSTALL_RECORD); fi

# Also what Kbuild leaves in kmod/ (make kmod, make check's guest tier).
# The kernel cache outside the work tree (/var/cache/sigfd-kernels or
# SIGFD_KERNEL_CACHE: kernel/run.sh) stays: make kcache-clean empties it.
clean:
	rm -rf build
	cd kmod && rm -rf *.o *.ko *.mod *.mod.c .*.cmd modules.order Module.symvers .tmp_versions .*.o.d

-include $(shell find $(B) -name '*.d' 2>/dev/null)
