# wadkit — see README.md. `make test` is what CI runs (.ci/run).
PYTHON ?= python3
REQ_HASH := $(shell cat requirements-dev.txt | sha256sum | cut -c1-12)
# The venv lives outside the clone, keyed by the requirements, so CI reuses it.
VENV ?= $(HOME)/.cache/wadkit/venv-$(REQ_HASH)
VPY := $(VENV)/bin/python
PYTEST := $(VENV)/bin/pytest
SAN_DIR := build/sanitize
# pytest-xdist workers for test-plain and sanitize (one per core; 0 = none)
PYTEST_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
PYTEST_XDIST := $(if $(filter 0 1,$(PYTEST_JOBS)),,-n $(PYTEST_JOBS))
export WADKIT_WERROR ?= 1

.PHONY: all deps build test test-plain sanitize demo wheel check-static clean

all: build

$(VPY): requirements-dev.txt
	./tools/install-system-deps.sh build
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install -q --upgrade pip
	$(VPY) -m pip install -q -r requirements-dev.txt
	touch $(VPY)

deps: $(VPY)
	./tools/install-system-deps.sh build

build: deps
	$(VPY) setup.py -q build_ext --inplace

# The README's test command: the suite, then the suite again under ASan+UBSan.
test: test-plain sanitize test-blender fuzz-smoke

# pytest exits 5 when it collected nothing: that is a failure here.
test-plain: build
	PYTHONPATH=$(CURDIR) $(PYTEST) tests -q -p no:cacheprovider $(PYTEST_XDIST); rc=$$?; \
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
	  $(PYTEST) $(SANITIZE_TESTS) -q -p no:cacheprovider $(PYTEST_XDIST); rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "no tests collected" >&2; exit 1; fi; exit $$rc

# The sample levels (wadkit/samples, no game data): WAD, .glb, PNG pages.
demo: build
	PYTHONPATH=$(CURDIR) $(VPY) -m wadkit demo build/demo
	PYTHONPATH=$(CURDIR) $(VPY) -m wadkit info build/demo/sample_eng.wad
	@if ./tools/bpy-venv.sh $(BPY_VENV); then \
	  PYTHONPATH=$(CURDIR) $(BPY_VENV)/bin/python tools/demo_blender.py build/demo; \
	else echo "demo: no Blender (bpy) here: skipped the Blender import and previews"; fi

# `pip install .` in an isolated build, as a user would: for this venv's
# CPython (3.11: Blender 4.2-5.0) and for CPython 3.13 (Blender 5.1+), whose
# interpreter tools/find-python.sh finds (python3.13 or pyenv's). Without
# one, CI fails here; elsewhere the cp313 wheel is left out, with a note.
PY313 ?= $(shell ./tools/find-python.sh 3.13)
wheel: deps
	rm -f build/wheel/wadkit-*.whl
	$(VPY) -m pip wheel -q --no-deps -w build/wheel .
	@if [ -n "$(PY313)" ]; then \
	  echo "$(PY313) -m pip wheel -q --no-deps -w build/wheel ."; \
	  PIP_ROOT_USER_ACTION=ignore $(PY313) -m pip wheel -q --no-deps -w build/wheel . ; \
	else echo "make wheel: no CPython 3.13 here: no cp313 wheel (Blender 5.1+)" >&2; \
	  [ "$${CI:-}" != true ] && [ "$${WADKIT_REQUIRE_BLENDER:-0}" != 1 ]; fi

clean:
	rm -rf build wadkit/*.so

# --- Blender add-on (blender_addon/, docs/blender.md) ---
.PHONY: test-blender blender-extension
# One venv per Blender, ~/.cache/wadkit/bpy-venv-<hash of its requirements>.
bpy_venv = $(HOME)/.cache/wadkit/bpy-venv-$(shell cat $(1) | sha256sum | cut -c1-12)
BPY_VENV ?= $(call bpy_venv,requirements-blender.txt)
BPY50_VENV ?= $(call bpy_venv,requirements-blender-5.0.txt)
BPY53_VENV ?= $(call bpy_venv,requirements-blender-5.3.txt)

# tests/blender in three real headless Blenders (bpy wheels): the whole
# suite in 4.5 LTS (else Debian's blender), the tests marked every_blender
# (both sample levels imported and exported, the extension zip installed
# and used, the add-on's conventions) in 5.0 and in 5.3 (CPython 3.13).
test-blender: build blender-extension
	./tools/blender-tests.sh $(BPY_VENV) requirements-blender.txt
	./tools/blender-tests.sh $(BPY50_VENV) requirements-blender-5.0.txt -m every_blender
	./tools/blender-tests.sh $(BPY53_VENV) requirements-blender-5.3.txt -m every_blender

# The Blender 4.2+ extension zip: blender_addon/ + the wadkit wheels (cp311,
# cp313); the cp313 module is also copied into wadkit/ for Blender 5.3's tests.
blender-extension: wheel
	$(VPY) tools/blender_extension.py build/wheel build/blender --inplace wadkit

# Screenshots of Blender's window for docs/blender-workflow.md (issue 14):
# Debian's Blender under Xvfb (tools/ui-screenshots.sh). Not part of make test.
.PHONY: ui-screenshots
ui-screenshots: build
	./tools/ui-screenshots.sh docs/images

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
	./tools/install-system-deps.sh valgrind
	mkdir -p build
	PYTHONPATH=$(CURDIR) $(VPY) tools/valgrind-check.py build/valgrind.xml -- $(VALGRIND_TESTS)
