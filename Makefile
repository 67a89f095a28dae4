# The two commands a new user runs (README): `make demo` and `make test`.
# Both install missing Debian packages first (tools/install-deps), then build the release preset.
# `make demo` also renders out/<case>/demo.png and demo.gif when ParaView and ffmpeg are installed
# (tools/install-deps --paraview).
# bash: the test recipe's pipe keeps ctest's status (pipefail).
SHELL := /bin/bash
PRESET ?= release
BUILD := build/$(PRESET)
JOBS ?= 2
DEMO_CASE ?= bathe-pendulum
# A VTK frame every 0.4 s: ten per swing of the demo's pendulum (its rows stay at every step).
DEMO_FRAME_DT ?= 0.4
# What the demo changes in its case (DEMO_SETS: --set arguments; none for another DEMO_CASE
# unless given). The bar of Bathe's pendulum starts stretched by the tension of the bob's launch,
# m (g + v0²/l) = 294 N. Unstretched, its axial mode (period 3.5e-4 s), which Δt = 0.1 s does not
# resolve and the undamped midpoint scheme keeps, flips the force between two branches from step
# to step (+585 and −36 N at first), and frames every 4 steps show one of them: a bar in
# compression (down to −297 N) where it carries 0 to 294 N. Stretched, the force stays within 7 N
# of the exact m (v²/l + g cos θ). 413 whole steps (10 periods are 41.33 s): a shorter last step
# would kick that mode again (28 N in the last frame). tools/validate and the case tests keep the
# case's own unstretched start.
ifeq ($(DEMO_CASE),bathe-pendulum)
DEMO_SETS ?= --set 'trusses.rod.rest_length=l/(1+m*(g+v0^2/l)/EA)' --set analysis.t_end=41.3
endif

# ccache, when installed, compiles every preset (CMake takes the launcher from the environment when
# it first configures a build directory), and with base_dir at this checkout it hashes paths relative
# to it: a clone anywhere (CI clones into a new directory) hits what another clone compiled.
ifneq ($(shell command -v ccache),)
export CMAKE_C_COMPILER_LAUNCHER ?= ccache
export CMAKE_CXX_COMPILER_LAUNCHER ?= ccache
export CCACHE_BASEDIR := $(CURDIR)
endif

.PHONY: deps configure build demo test test-release test-python test-asan fuzz clean

deps:
	@tools/install-deps

configure: deps
	@cmake --preset $(PRESET) >/dev/null

build: configure
	@cmake --build --preset $(PRESET) -j $(JOBS)

demo: build
	$(BUILD)/catena run cases/$(DEMO_CASE)/model.yaml --out out/$(DEMO_CASE) --set output.dt=$(DEMO_FRAME_DT) $(DEMO_SETS)
	@echo
	@echo "ParaView files: $(CURDIR)/out/$(DEMO_CASE)/results.pvd  (File > Open in ParaView)"
	@echo "Histories:      $(CURDIR)/out/$(DEMO_CASE)/energy.csv, sensors.csv, summary.json"
	@# A picture of the last frame and a movie of the run when ParaView (and ffmpeg) are there
	@# (tools/render exits 3 when they are not); never a reason for the demo to fail. What the
	@# picture may hide (tools/render's warnings: a colour field that flips sign from frame to
	@# frame) is shown under it.
	@tools/render out/$(DEMO_CASE) --last --out out/$(DEMO_CASE)/demo.png >/dev/null 2>out/$(DEMO_CASE)/render.log; \
	code=$$?; \
	if [ $$code -eq 0 ]; then echo "Picture:        $(CURDIR)/out/$(DEMO_CASE)/demo.png (tools/render)"; \
	  grep "^tools/render: warning: " out/$(DEMO_CASE)/render.log; \
	elif [ $$code -eq 3 ]; then echo "Picture:        none; for out/$(DEMO_CASE)/demo.png run tools/install-deps --paraview, then make demo"; \
	else echo "Picture:        tools/render failed, see out/$(DEMO_CASE)/render.log"; fi; \
	if [ $$code -ne 3 ]; then \
	  tools/render out/$(DEMO_CASE) --movie out/$(DEMO_CASE)/demo.gif >/dev/null 2>>out/$(DEMO_CASE)/render.log; \
	  code=$$?; \
	  if [ $$code -eq 0 ]; then echo "Movie:          $(CURDIR)/out/$(DEMO_CASE)/demo.gif (tools/render --movie; tools/view out/$(DEMO_CASE) opens ParaView on the run)"; \
	  elif [ $$code -eq 3 ]; then echo "Movie:          none; ffmpeg is missing: tools/install-deps --paraview"; \
	  else echo "Movie:          tools/render failed, see out/$(DEMO_CASE)/render.log"; fi; \
	fi

# `make test` (what CI runs, .ci/run): the release tests (`make test-release`, all of ctest), the
# Python module's (`make test-python`, pytest on python/tests/), then the unit and system tests
# again under AddressSanitizer + LeakSanitizer + UBSan (`make test-asan`, tools/asan-test), then
# the model reader's fuzzer for FUZZ_SECONDS (`make fuzz`, tools/fuzz-model-reader); each phase
# fails on any finding, and the last lines repeat each phase's summary (README, "Reliability").
FUZZ_SECONDS ?= 120

test: test-release test-python
	@JOBS=$(JOBS) tools/asan-test
	@JOBS=$(JOBS) tools/fuzz-model-reader $(FUZZ_SECONDS)
	@echo
	@echo "release: $$(grep -E '^[0-9]+% tests passed' $(BUILD)/ctest.log | tail -n 1)"
	@echo "python:  $$(tail -n 1 $(BUILD)/pytest.log)"
	@cat build/asan/summary.txt build/fuzz/run/summary.txt

test-release: build
	cd $(BUILD) && set -o pipefail && ctest --output-on-failure -j $(JOBS) --timeout 600 2>&1 | tee ctest.log

# The package as `make demo` leaves it (build/<preset>/python/catena), against the command line
# beside it; about a minute.
test-python: build
	set -o pipefail && PYTHONPATH=$(CURDIR)/$(BUILD)/python /usr/bin/python3 -m pytest -q -p no:cacheprovider python/tests 2>&1 | tee $(BUILD)/pytest.log

test-asan: deps
	@JOBS=$(JOBS) tools/asan-test

fuzz: deps
	@JOBS=$(JOBS) tools/fuzz-model-reader $(FUZZ_SECONDS)

clean:
	rm -rf build out
