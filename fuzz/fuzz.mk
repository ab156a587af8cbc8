# SPDX-License-Identifier: MIT
# The reliability campaign (docs/testing.md), included by the top Makefile.
#   make coverage        the suite under gcov, in build/coverage; line and
#                        branch report of src/ (gcovr) in build/coverage/report
#   make fuzz-check      libFuzzer on the tools' parsers, a fixed budget
#   make soak MINUTES=N  the share-mode soak driver for N minutes, with a tally
.PHONY: coverage coverage-report

COV_B := build/coverage
# The guest tiers run static programs of their own, not instrumented:
# GUESTS=no makes them report SKIPPED here instead of booting QEMU for
# nothing. Coverage measures; make check judges: the runs that link the
# library outside this build's flags (install, readme_example, man_examples,
# cmake_consumer) or list its exported symbols (static_symbols) fail here on
# gcov's own symbols, and watch_trace, which runs sigfd-watch as user nobody,
# on gcov's "cannot open" lines for the root-owned .gcda files in its
# output: they are named, not fatal.
COV_ARTIFACTS := install readme_example man_examples static_symbols cmake_consumer watch_trace
coverage: coverage-tools
	@mkdir -p $(COV_B)
	@find $(COV_B) -name '*.gcda' -delete
	@env SIGFD_COVERAGE_RUN=1 $(MAKE) --no-print-directory check GUESTS=no B=$(COV_B) CC=gcc \
	    CFLAGS='-O0 -g --coverage -fprofile-update=atomic' LDFLAGS=--coverage SIGFD_NO_INSTALL=1 \
	    > $(COV_B)/suite.log 2>&1 || true
	@grep -E '^(FAIL|[0-9]+ passed)' $(COV_B)/suite.log || true
	@$(MAKE) --no-print-directory coverage-report
	@failed=$$(sed -n 's/^failed://p' $(COV_B)/suite.log); bad=; \
	for t in $$failed; do case " $(COV_ARTIFACTS) " in *" $$t "*) ;; *) bad="$$bad $$t" ;; esac; done; \
	[ -z "$$bad" ] || { echo "coverage: the suite failed:$$bad (see $(COV_B)/suite.log)"; exit 1; }

# A process killed, or forked without fork handlers, while it updates
# gcov's counters can leave a branch count negative, which gcovr refuses:
# such a line is skipped and named on stderr (atomic updates keep threads
# from doing it too).
GCOVR_BIN ?= gcovr
GCOVR := $(GCOVR_BIN) -r . -f 'src/' --gcov-ignore-parse-errors
# Asked first, before minutes of the suite: without gcovr there is no report.
.PHONY: coverage-tools
coverage-tools:
	@command -v $(GCOVR_BIN) >/dev/null 2>&1 || \
	    { echo "coverage: $(GCOVR_BIN) not found: the report needs gcovr (as root: apt-get install gcovr)" >&2; exit 1; }
coverage-report: coverage-tools
	@mkdir -p $(COV_B)/report
	$(GCOVR) --exclude-unreachable-branches \
	    --html-details $(COV_B)/report/index.html \
	    --txt $(COV_B)/report/coverage.txt $(COV_B)/obj/src
	$(GCOVR) --branches --txt $(COV_B)/report/branches.txt $(COV_B)/obj/src
	@cat $(COV_B)/report/coverage.txt
	@tail -n 3 $(COV_B)/report/branches.txt

# libFuzzer needs clang (Debian's clang ships it). The parsers are built
# again with ASan and UBSan, apart from the suite's objects.
FUZZ_CC      ?= clang
FUZZ_B       := build/fuzz
FUZZ_SECONDS ?= 60
FUZZ_FLAGS   := -std=c11 -D_GNU_SOURCE $(WARN) -g -O1 -Iinclude \
                -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
                -DSIGFD_TOOLS_VERSION='"$(VERSION)"'
.PHONY: fuzz-build fuzz-check fuzz-args
$(FUZZ_B)/args_fuzz: fuzz/args_fuzz.c tools/args.c tools/signame.c tools/args.h tools/signame.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/args_fuzz.c tools/args.c tools/signame.c
fuzz-build: $(FUZZ_B)/args_fuzz

# New inputs go to build/fuzz/corpus, never into the source tree; a crash
# is written to build/fuzz/ and replayed with: build/fuzz/args_fuzz FILE
fuzz-args: $(FUZZ_B)/args_fuzz
	@mkdir -p $(FUZZ_B)/corpus
	cd $(FUZZ_B) && ./args_fuzz -max_total_time=$(FUZZ_SECONDS) -timeout=5 \
	    -print_final_stats=1 -artifact_prefix=./ corpus ../../fuzz/corpus/args


# The model-based differential test (fuzz/model_diff.c), a program of the
# build like any other (tests/tiers/model_diff.sh runs it briefly in make check).
# make fuzz-check runs FUZZ_SEQUENCES sequences from FUZZ_FIRST; a long run:
#   build/cc/fuzz/model_diff --first 1 --seeds 1000000 --seconds 3600
FUZZ_SEQUENCES ?= 2000
FUZZ_FIRST     ?= 1
FUZZ_JOBS      ?= $(shell echo $$(($$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2) * 2)))
$(eval $(call program,$(B)/fuzz/model_diff,fuzz/model_diff.c))
all: $(B)/fuzz/model_diff

# The share-mode soak driver (fuzz/soak.c): make soak runs it for MINUTES,
# tests/tiers/soak_short.sh for a few seconds in make check.
$(eval $(call program,$(B)/fuzz/soak,fuzz/soak.c))
all: $(B)/fuzz/soak
.PHONY: fuzz-model
fuzz-model: $(B)/fuzz/model_diff
	sh fuzz/model_shards.sh $(B)/fuzz/model_diff $(FUZZ_FIRST) $(FUZZ_SEQUENCES) $(FUZZ_JOBS)

# The fixed budget CI runs: the parsers for FUZZ_SECONDS, then the model.
fuzz-check: fuzz-args fuzz-model

# make soak MINUTES=N (fuzz/soak.sh): the soak driver for N minutes; under
# TSan: make soak SANITIZE=thread MINUTES=1 (soak.sh sets TSAN_OPTIONS to
# die_after_fork=0 unless given: share_stress's children start threads).
.PHONY: soak
soak: all
	@BUILD=$(B) MINUTES=$(or $(MINUTES),1) WRAP= sh fuzz/soak.sh
