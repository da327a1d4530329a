# nestvp: `make run` and `make test` work on a fresh Debian bookworm machine.
BUILD ?= build
JOBS  ?= $(shell nproc)
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release
# Optimisation of the build (bench/README.md, "What make builds"). PGO=1 trains an instrumented
# `nestvp` first (scripts/pgo-train.sh) and compiles against its profiles; LTO=1 links `nestvp`
# with link-time optimisation. Both are off by default: on a fresh clone they cost more build
# time than they save in `make run` (measured there). `make bench PGO=1 LTO=1` builds the
# fastest binary; training runs again whenever a source is newer than the profiles.
PGO ?= 0
LTO ?= 0
ifeq ($(PGO),1)
PGO_FLAGS = -DNESTVP_PGO=use -DNESTVP_PGO_DIR=$(abspath $(BUILD)).pgo-data
else
PGO_FLAGS = -DNESTVP_PGO=OFF
endif
LTO_FLAGS = -DNESTVP_LTO=$(if $(filter 1,$(LTO)),ON,OFF)

.PHONY: all deps configure build run test bench bench-campaign bench-long asan fuzz fuzz-run coverage \
	mutation format clean formal

all: build

deps:
	@scripts/install-deps.sh

configure: deps
	@if [ "$(PGO)" = 1 ]; then scripts/pgo-train.sh $(BUILD) $(JOBS); fi
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) $(PGO_FLAGS) $(LTO_FLAGS) > $(BUILD).configure.log 2>&1 || (cat $(BUILD).configure.log; exit 1)

build: configure
	@cmake --build $(BUILD) -j$(JOBS)

# The main job builds only what it runs: the `nestvp` command (`make test` builds the tests).
run: configure
	@cmake --build $(BUILD) -j$(JOBS) --target nestvp
	@scripts/run-main.sh $(BUILD)

CTEST_ARGS ?=
test: build
	@ctest --test-dir $(BUILD) -j$(JOBS) --output-on-failure $(CTEST_ARGS)

bench: build
	@bench/run.sh $(BUILD)

# A 32-point sweep at -j 1 and -j 2, wall time (bench/README.md, "Campaigns").
bench-campaign: build
	@nice -n 19 $(BUILD)/bench/nested_bench --campaign --reps 3

# 120 s simulated idle-heavy run with RSS sampled every second (bench/README.md).
bench-long: build
	@nice -n 19 $(BUILD)/bench/nested_bench --long

# libFuzzer targets with Debian's clang, in their own build folder (docs/fuzzing.md).
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 600
fuzz:
	@NESTVP_WITH_CLANG=1 scripts/install-deps.sh
	@CC=clang CXX=clang++ cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DNESTVP_FUZZ=ON > $(FUZZ_BUILD).configure.log 2>&1 || (cat $(FUZZ_BUILD).configure.log; exit 1)
	@cmake --build $(FUZZ_BUILD) -j$(JOBS) --target fuzz_targets

fuzz-run: fuzz
	@tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

# The sanitizer suite: ASan+UBSan build, whole test suite. The options reach every test and
# every `nestvp` a test starts: UB aborts with a stack trace, leaks fail (suppressions, none at
# present, would go in tests/support/lsan.supp with their reason). ASAN_CMAKE_FLAGS /
# ASAN_CTEST_ARGS let CI trade optimisation or a label subset for time (.ci/run).
ASAN_CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Debug -DNESTVP_SANITIZE=ON
export ASAN_OPTIONS ?= detect_leaks=1:check_initialization_order=1:detect_stack_use_after_return=0
export LSAN_OPTIONS ?= suppressions=$(CURDIR)/tests/support/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS ?= print_stacktrace=1:halt_on_error=1
asan: deps
	@$(MAKE) --no-print-directory BUILD=build-asan CMAKE_FLAGS="$(ASAN_CMAKE_FLAGS)" PGO=0 \
		CTEST_ARGS="$(ASAN_CTEST_ARGS)" test

# Line and toggle coverage of rtl/decrementer_unit.v under the conformance vectors, the random
# differential test and a lockstep platform run, in its own build folder (docs/rtl-decrementer.md).
COV_BUILD ?= build-coverage
coverage: deps
	@cmake -S . -B $(COV_BUILD) -DCMAKE_BUILD_TYPE=Release -DNESTVP_RTL_COVERAGE=ON \
		> $(COV_BUILD).configure.log 2>&1 || (cat $(COV_BUILD).configure.log; exit 1)
	@cmake --build $(COV_BUILD) -j$(JOBS) --target nestvp timer_conformance rtl_differential
	@scripts/rtl-coverage.sh $(COV_BUILD) $(JOBS)

# C++ mutation testing of the timer and interrupt-delivery models (scripts/mutants.py) against
# the timer and RTL tests, in a scratch copy of the tree and its own build folder (Release, no
# LTO, no PGO); never writes the checkout (docs/testing.md, "Mutation").
MUTATION_DIR ?= build-mutation
mutation: deps
	@python3 scripts/mutation.py --dir $(MUTATION_DIR) --jobs 2

format:
	@git ls-files '*.h' '*.cpp' | xargs clang-format -i

clean:
	rm -rf $(BUILD) $(BUILD).pgo-gen $(BUILD).pgo-data build-asan $(FUZZ_BUILD) $(COV_BUILD) \
		$(MUTATION_DIR)

# The real nested stack from Debian's archive (L0 QEMU 10 TCG, L1 Debian 6.12 with KVM-HV, L2):
# images and both kvm-hv.ko builds in build-realstack/. Never part of `make test`; runs go
# through scripts/realstack-run.sh (bench/realstack/README.md).
.PHONY: realstack
realstack:
	@scripts/realstack/build.sh

# Proofs, covers, the adv=N miter and the RTL mutants of rtl/decrementer_unit.v with yosys and
# yosys-smtbmc (z3); one line per property, cover and mutant (docs/rtl-decrementer.md).
formal: deps
	@nice -n 10 python3 scripts/formal/run_formal.py build-formal -j$(JOBS)
