# wadkit — see README.md. `make test` is what CI runs (.ci/run).
PYTHON ?= python3
REQ_HASH := $(shell cat requirements-dev.txt | sha256sum | cut -c1-12)
# The venv lives outside the clone, keyed by the requirements, so CI reuses it.
VENV ?= $(HOME)/.cache/wadkit/venv-$(REQ_HASH)
VPY := $(VENV)/bin/python
PYTEST := $(VENV)/bin/pytest
SAN_DIR := build/sanitize
export WADKIT_WERROR ?= 1

.PHONY: all deps build test test-plain sanitize demo wheel check-static clean

all: build

$(VPY): requirements-dev.txt
	./tools/install-system-deps.sh
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install -q --upgrade pip
	$(VPY) -m pip install -q -r requirements-dev.txt
	touch $(VPY)

deps: $(VPY)
	./tools/install-system-deps.sh

build: deps
	$(VPY) setup.py -q build_ext --inplace

# The README's test command: the suite, then the suite again under ASan+UBSan.
test: test-plain sanitize test-blender fuzz-smoke

# pytest exits 5 when it collected nothing: that is a failure here.
test-plain: build
	PYTHONPATH=$(CURDIR) $(PYTEST) tests -q -p no:cacheprovider; rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "no tests collected" >&2; exit 1; fi; exit $$rc

# The whole suite against an ASan + UBSan build of the extension
# (SANITIZE_TESTS="tests/test_x.py ..." runs only those).
SANITIZE_TESTS ?= tests
sanitize: deps
	rm -rf $(SAN_DIR) && mkdir -p $(SAN_DIR)
	cp -r wadkit $(SAN_DIR)/ && rm -rf $(SAN_DIR)/wadkit/*.so $(SAN_DIR)/wadkit/__pycache__
	WADKIT_SANITIZE=1 $(VPY) setup.py -q build_ext -b $(SAN_DIR) -t $(SAN_DIR)/tmp
	PYTHONPATH=$(CURDIR)/$(SAN_DIR) PYTHONMALLOC=malloc \
	  LD_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libubsan.so)" \
	  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tools/lsan.supp:print_suppressions=0 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  $(PYTEST) $(SANITIZE_TESTS) -q -p no:cacheprovider; rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "no tests collected" >&2; exit 1; fi; exit $$rc

# The sample levels (wadkit/samples, no game data): WAD, .glb, PNG pages.
demo: build
	PYTHONPATH=$(CURDIR) $(VPY) -m wadkit demo build/demo
	PYTHONPATH=$(CURDIR) $(VPY) -m wadkit info build/demo/sample_eng.wad
	@if ./tools/bpy-venv.sh $(BPY_VENV); then \
	  PYTHONPATH=$(CURDIR) $(BPY_VENV)/bin/python tools/demo_blender.py build/demo; \
	else echo "demo: no Blender (bpy) here: skipped the Blender import and previews"; fi

# `pip install .` in an isolated build, as a user would.
wheel: deps
	$(VPY) -m pip wheel -q --no-deps -w build/wheel .

clean:
	rm -rf build wadkit/*.so

# --- Blender add-on (blender_addon/, docs/blender.md) ---
.PHONY: test-blender blender-extension
BPY_REQ_HASH := $(shell cat requirements-blender.txt | sha256sum | cut -c1-12)
BPY_VENV ?= $(HOME)/.cache/wadkit/bpy-venv-$(BPY_REQ_HASH)

# tests/blender in a real headless Blender (bpy wheel, else Debian's blender).
test-blender: build blender-extension
	./tools/blender-tests.sh $(BPY_VENV)

# The Blender 4.2+ extension zip: blender_addon/ + the wheel of wadkit.
blender-extension: wheel
	$(VPY) tools/blender_extension.py build/wheel build/blender

# The side-by-side benchmark table (issue 11; docs/performance.md). Prints
# the table and writes build/bench/results.json. Not part of `make test`.
.PHONY: bench
bench: build
	OPENBLAS_NUM_THREADS=1 PYTHONPATH=$(CURDIR) $(VPY) -m bench

include fuzz/fuzz.mk

# A representative pytest subset under valgrind memcheck (plain build);
# fails on any error or definite leak with a frame in wadkit's extension.
VALGRIND_TESTS ?= tests/test_eng_container.py tests/test_hostile.py \
  tests/test_leaks_threads.py tests/test_fuzz_regressions.py -m "not slow" \
  -k "not memory_bound and not releases_the_gil and not thousand"
valgrind: build
	@which valgrind >/dev/null || { echo "valgrind is not installed (tools/install-system-deps.sh)" >&2; exit 1; }
	mkdir -p build
	PYTHONPATH=$(CURDIR) $(VPY) tools/valgrind-check.py build/valgrind.xml -- $(VALGRIND_TESTS)
