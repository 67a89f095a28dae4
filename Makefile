# The two commands a new user runs (README): `make demo` and `make test`.
# Both install missing Debian packages first (tools/install-deps), then build the release preset.
PRESET ?= release
BUILD := build/$(PRESET)
JOBS ?= 2
DEMO_CASE ?= bathe-pendulum

.PHONY: deps configure build demo test clean

deps:
	@tools/install-deps

configure: deps
	@cmake --preset $(PRESET) >/dev/null

build: configure
	@cmake --build --preset $(PRESET) -j $(JOBS)

demo: build
	$(BUILD)/catena run cases/$(DEMO_CASE)/model.yaml --out out/$(DEMO_CASE)
	@echo
	@echo "ParaView files: $(CURDIR)/out/$(DEMO_CASE)/results.pvd  (File > Open in ParaView)"
	@echo "Histories:      $(CURDIR)/out/$(DEMO_CASE)/energy.csv, sensors.csv, summary.json"

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) --timeout 600

clean:
	rm -rf build out
