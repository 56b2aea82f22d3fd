# libFuzzer harnesses (fuzz/fuzz_<name>.c), included by the Makefile.
# See docs/testing.md. A harness is one .c file here plus a seed function in
# fuzz/seeds.py; it links every core object, so nothing else needs listing.
FUZZ_CC ?= clang-14
FUZZ_OUT := build/fuzz
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 20
FUZZ_TARGETS := $(patsubst fuzz/fuzz_%.c,%,$(wildcard fuzz/fuzz_*.c))
FUZZ_BINS := $(FUZZ_TARGETS:%=$(FUZZ_OUT)/fuzz_%)
FUZZ_CORE_SRCS := $(shell find csrc/core -name '*.c' | sort)
FUZZ_CORE_OBJS := $(FUZZ_CORE_SRCS:csrc/%.c=$(FUZZ_OUT)/obj/%.o)
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
# `=`, not `:=`: pkg-config runs when a rule needs it, after `deps` has
# installed GLib on a fresh machine
FUZZ_CFLAGS = -std=c11 -g -O1 -fno-omit-frame-pointer -Wall -Wextra \
  -Wno-unused-parameter -Wno-missing-field-initializers -Werror -Icsrc \
  $(shell pkg-config --cflags glib-2.0 2>/dev/null)
FUZZ_LIBS = $(shell pkg-config --libs glib-2.0 2>/dev/null)

.PHONY: fuzz fuzz-smoke fuzz-build fuzz-deps
.SECONDARY: $(FUZZ_CORE_OBJS)

# clang 14 and its sanitizer runtimes (only the fuzzers need them)
fuzz-deps: deps
	./tools/install-system-deps.sh fuzz

$(FUZZ_OUT)/obj/%.o: csrc/%.c $(wildcard csrc/core/*/*.h) | fuzz-deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(FUZZ_SAN) -c $< -o $@

$(FUZZ_OUT)/fuzz_%: fuzz/fuzz_%.c $(wildcard fuzz/*.h) $(FUZZ_CORE_OBJS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(FUZZ_SAN) $< $(FUZZ_CORE_OBJS) \
	  $(FUZZ_LIBS) -o $@

fuzz-build: fuzz-deps $(FUZZ_BINS)

# Each harness for FUZZ_SECONDS (default 60), one after the other.
fuzz: fuzz-build
	$(VPY) fuzz/seeds.py $(FUZZ_OUT)/seeds
	for t in $(FUZZ_TARGETS); do fuzz/run.sh $$t $(FUZZ_SECONDS) || exit 1; done

# The CI smoke (part of `make test`): each harness for FUZZ_SMOKE_SECONDS,
# FUZZ_JOBS of them at a time (default: one per core); xargs fails (exit
# 123) when any harness failed, after the others have finished; then
# fuzz/report.sh prints each failure's message and input last, where a CI
# log's tail shows it.
FUZZ_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
fuzz-smoke: fuzz-build
	$(VPY) fuzz/seeds.py $(FUZZ_OUT)/seeds
	rm -rf $(FUZZ_OUT)/failed
	printf '%s\n' $(FUZZ_TARGETS) | xargs -P $(FUZZ_JOBS) -I{} fuzz/run.sh {} $(FUZZ_SMOKE_SECONDS) \
	  || { fuzz/report.sh; exit 1; }
