# The two set-up commands of the README: `make demo` and `make test`.
# Both install missing Debian packages first, then build everything.
BUILD_DIR ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all deps build test demo bench clean

all: build

deps:
	@./scripts/install-deps

build: deps
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DBUILD_TESTING=ON > $(BUILD_DIR).configure.log 2>&1 || (cat $(BUILD_DIR).configure.log; exit 1)
	@cmake --build $(BUILD_DIR) -j $(JOBS)

test: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

demo: build
	@$(BUILD_DIR)/apps/hetscale/hetscale demo
	@BUILD_DIR=$(BUILD_DIR) ./scripts/demo-farm
	@BUILD_DIR=$(BUILD_DIR) ./scripts/demo-scale
	@BUILD_DIR=$(BUILD_DIR) ./scripts/demo-optimize
	@BUILD_DIR=$(BUILD_DIR) ./scripts/demo-simulate
	@BUILD_DIR=$(BUILD_DIR) ./scripts/demo-report

# The speeds, efficiencies and times: goals that hold on a quiet machine, so
# they are here and not in `make test` (whose tests hold however busy it is);
# --check fails the bench when one is missed.
bench: build
	@$(BUILD_DIR)/bench/farm_experiments overhead
	@$(BUILD_DIR)/bench/farm_experiments policies --check
	@$(BUILD_DIR)/bench/farm_experiments crossvalidate --check
	@$(BUILD_DIR)/bench/emulated_speed --check
	@$(BUILD_DIR)/bench/lennard_jones_ga --check
	@$(BUILD_DIR)/bench/kernel_speed 1024
	@$(BUILD_DIR)/bench/optimizer_search 100
	@$(BUILD_DIR)/bench/simulate_farm_scale
	@$(BUILD_DIR)/bench/measure_overhead

clean:
	rm -rf $(BUILD_DIR) $(BUILD_DIR).configure.log
