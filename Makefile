# The two set-up commands of the README: `make demo` and `make test`.
# Both install missing Debian packages first, then build everything.
# SANITIZE=address,undefined: everything built and tested under those
# sanitizers, in its own folder (README.md, Development).
SANITIZE ?=
BUILD_DIR ?= $(if $(SANITIZE),build-sanitize,build)
BUILD_TYPE ?= RelWithDebInfo
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
PREFIX ?= /usr/local
# Open MPI runs more ranks than cores only when told to.
OVERSUBSCRIBE = $(shell mpiexec --version 2>/dev/null | grep -q "Open MPI\|OpenRTE" && echo --oversubscribe)

.PHONY: all deps build test demo bench fuzz install clean

all: build

deps:
	@./scripts/install-deps

build: deps
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DBUILD_TESTING=ON -DHETSCALE_SANITIZE=$(SANITIZE) > $(BUILD_DIR).configure.log 2>&1 || (cat $(BUILD_DIR).configure.log; exit 1)
	@cmake --build $(BUILD_DIR) -j $(JOBS)

# Under the sanitizers: the first finding ends the process with a report;
# the leaks of the MPI, SimGrid and other libraries' own are suppressed (whole
# stacks, not the fast unwinder's, so that a leak inside Open MPI's plugins is
# seen to come from libmpi).
SANITIZER_ENVIRONMENT = $(if $(SANITIZE),ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:fast_unwind_on_malloc=0 \
  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/sanitize/lsan.supp:print_suppressions=0 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1)

test: build
	@cd $(BUILD_DIR) && $(SANITIZER_ENVIRONMENT) ctest --output-on-failure -j $(JOBS)

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
	@python3 tests/measure/check_lammps.py $(BUILD_DIR)/apps/hetscale/hetscale lmp tests/measure/data/lj-melt.in $(BUILD_DIR)/bench-lammps --known-answer
	@$(BUILD_DIR)/bench/lennard_jones_ga --check
	@$(BUILD_DIR)/bench/kernel_speed 1024
	@$(BUILD_DIR)/bench/optimizer_search 100
	@$(BUILD_DIR)/bench/simulate_farm_scale
	@$(BUILD_DIR)/bench/measure_overhead
	@OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 python3 bench/measure_accuracy.py --short-calls=$(BUILD_DIR)/tests/short_calls \
		$(BUILD_DIR)/apps/hetscale/hetscale $(BUILD_DIR)/tests/stencil
	@OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 python3 bench/whatif_emulated.py --check \
		$(BUILD_DIR)/apps/hetscale/hetscale $(BUILD_DIR)/tests/stencil lmp tests/measure/data/lj-melt.in
	@OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 python3 bench/thread_chunking.py --check \
		$(BUILD_DIR)/apps/hetscale/hetscale $(BUILD_DIR)/tests/openmp_chunks
	@OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 python3 bench/host_device_split.py --check \
		$(BUILD_DIR)/apps/hetscale/hetscale $(BUILD_DIR)/tests/example_host_device_rows
	@OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 python3 bench/replay_accuracy.py --check \
		$(BUILD_DIR)/apps/hetscale/hetscale $(BUILD_DIR)/tests/stencil $(BUILD_DIR)/tests/heat lmp tests/measure/data/lj-melt.in
	@OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 python3 bench/task_farm_vs_parallel.py \
		--hetscale $(BUILD_DIR)/apps/hetscale/hetscale --at-speed $(BUILD_DIR)/bench/at_speed --mpiexec mpiexec \
		--flags=$(OVERSUBSCRIBE) --repetitions 3
	@$(BUILD_DIR)/bench/prediction_accuracy --check
	@OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 python3 bench/fpm_modes.py \
		--hetscale $(BUILD_DIR)/apps/hetscale/hetscale --mpiexec mpiexec --flags=$(OVERSUBSCRIBE)
	@for run in mm:250,500,1000,2000 ge:500,1000,2000; do OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
		python3 bench/fpm_gain.py --hetscale $(BUILD_DIR)/apps/hetscale/hetscale --mpiexec mpiexec \
		--flags=$(OVERSUBSCRIBE) --kernel $${run%%:*} --orders $${run#*:} || exit 1; done

# Each fuzz target for FUZZ_SECONDS (default 600), FUZZ_JOBS at a time.
FUZZ_SECONDS ?= 600
FUZZ_JOBS ?= 1
fuzz: build
	@BUILD_DIR=$(BUILD_DIR) ./scripts/fuzz --seconds $(FUZZ_SECONDS) --jobs $(FUZZ_JOBS)

# The command, the libraries, the headers, the CMake package and hetscale.pc
# under PREFIX (README.md, Installing).
install: build
	@cmake --install $(BUILD_DIR) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD_DIR) $(BUILD_DIR).configure.log
