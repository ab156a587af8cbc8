# SPDX-License-Identifier: MIT
# sigfd: GNU make, nothing else. Every build variant (compiler, sanitizer)
# gets its own directory under build/, so `make check CC=clang` after
# `make check` never mixes objects.
#   make                 library, tools, examples into build/<cc>/
#   make check           the whole test suite
#   make check CC=clang  | CC=musl-gcc | SANITIZE=address,undefined | VALGRIND=1
#   make demo            the scripted demonstration
#   make install PREFIX=/usr/local   (DESTDIR honoured); make uninstall

.DEFAULT_GOAL := all

CC       ?= cc
CFLAGS   ?= -O2 -g
PREFIX   ?= /usr/local
SANITIZE ?=
comma    := ,
VARIANT  := $(notdir $(firstword $(CC)))$(if $(SANITIZE),-$(subst $(comma),-,$(SANITIZE)))
B        := build/$(VARIANT)

VERSION  := 0.1.0
SOMAJOR  := 0

WARN     := -Wall -Wextra -Werror
SANFLAGS := $(if $(SANITIZE),-fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all)
ALL_CFLAGS  = -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(SANFLAGS) -Iinclude -pthread -MMD -MP
ALL_LDFLAGS = $(LDFLAGS) $(SANFLAGS) -pthread

LIB_SRCS := $(wildcard src/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(B)/obj/%.o)
LIB_A    := $(B)/lib/libsigfd.a
LIB_SO   := $(B)/lib/libsigfd.so.$(VERSION)

# Programs: each is NAME with NAME_SRCS; tools/, examples/, tests/, bench/
# describe theirs in their own .mk file or get one .c file per program.
# A program of several sources: $(eval $(call program,OUTPUT,SOURCES,LIBS)).
define program
$(1): $(patsubst %.c,$(B)/obj/%.o,$(2)) $(LIB_A)
	@mkdir -p $$(@D)
	$$(CC) $$(ALL_LDFLAGS) -o $$@ $$^ $(3)
endef
TOOL_BINS :=
include $(sort $(wildcard */*.mk))

EXAMPLES := $(patsubst examples/%.c,$(B)/examples/%,$(wildcard examples/*.c))
TESTS    := $(patsubst tests/%.c,$(B)/tests/%,$(wildcard tests/*.c))

.PHONY: all lib check demo install uninstall clean
# Objects are kept: make would otherwise delete them as intermediates.
.SECONDARY:
all: lib $(TOOL_BINS) $(EXAMPLES) $(TESTS)
lib: $(LIB_A) $(LIB_SO)

$(B)/obj/src/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -fPIC -fvisibility=hidden -c -o $@ $<

$(B)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(LIB_A): $(LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(LIB_SO): $(LIB_OBJS)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -shared -Wl,-soname,libsigfd.so.$(SOMAJOR) -Wl,-z,nodelete -o $@ $^
	ln -sf libsigfd.so.$(VERSION) $(B)/lib/libsigfd.so.$(SOMAJOR)
	ln -sf libsigfd.so.$(SOMAJOR) $(B)/lib/libsigfd.so

# Programs link the static library so tests run without LD_LIBRARY_PATH.
$(B)/examples/%: $(B)/obj/examples/%.o $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^

$(B)/tests/%: $(B)/obj/tests/%.o $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^

check: all
	@BUILD=$(B) VALGRIND=$(VALGRIND) CC='$(CC)' TEST_CFLAGS='$(SANFLAGS)' sh tests/run-all

demo: all
	@BUILD=$(B) sh tools/demo.sh

DESTDIR ?=
LIBDIR  ?= $(PREFIX)/lib
INCDIR  ?= $(PREFIX)/include
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
PCDIR   ?= $(LIBDIR)/pkgconfig
MAN3    := $(wildcard docs/*.3)
MAN1    := $(wildcard docs/*.1)

$(B)/sigfd.pc: sigfd.pc.in
	@mkdir -p $(@D)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCDIR@|$(INCDIR)|' \
	    -e 's|@VERSION@|$(VERSION)|' $< > $@

install: lib $(TOOL_BINS) $(B)/sigfd.pc
	install -d $(DESTDIR)$(INCDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PCDIR) $(DESTDIR)$(BINDIR) \
	    $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3
	install -m 644 include/sigfd.h $(DESTDIR)$(INCDIR)/sigfd.h
	install -m 644 $(LIB_A) $(DESTDIR)$(LIBDIR)/libsigfd.a
	install -m 755 $(LIB_SO) $(DESTDIR)$(LIBDIR)/libsigfd.so.$(VERSION)
	ln -sf libsigfd.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libsigfd.so.$(SOMAJOR)
	ln -sf libsigfd.so.$(SOMAJOR) $(DESTDIR)$(LIBDIR)/libsigfd.so
	install -m 644 $(B)/sigfd.pc $(DESTDIR)$(PCDIR)/sigfd.pc
	$(if $(TOOL_BINS),install -m 755 $(TOOL_BINS) $(DESTDIR)$(BINDIR)/)
	$(if $(MAN1),install -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1/)
	$(if $(MAN3),install -m 644 $(MAN3) $(DESTDIR)$(MANDIR)/man3/)

uninstall:
	rm -f $(DESTDIR)$(INCDIR)/sigfd.h $(DESTDIR)$(PCDIR)/sigfd.pc \
	    $(DESTDIR)$(LIBDIR)/libsigfd.a $(DESTDIR)$(LIBDIR)/libsigfd.so \
	    $(DESTDIR)$(LIBDIR)/libsigfd.so.$(SOMAJOR) $(DESTDIR)$(LIBDIR)/libsigfd.so.$(VERSION) \
	    $(addprefix $(DESTDIR)$(BINDIR)/,$(notdir $(TOOL_BINS))) \
	    $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN1))) \
	    $(addprefix $(DESTDIR)$(MANDIR)/man3/,$(notdir $(MAN3)))

clean:
	rm -rf build

-include $(shell find $(B) -name '*.d' 2>/dev/null)
