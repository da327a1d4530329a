# nestvp: `make run` and `make test` work on a fresh Debian bookworm machine.
BUILD ?= build
JOBS  ?= $(shell nproc)
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release

.PHONY: all deps configure build run test bench bench-long asan fuzz fuzz-run format clean

all: build

deps:
	@scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) > $(BUILD).configure.log 2>&1 || (cat $(BUILD).configure.log; exit 1)

build: configure
	@cmake --build $(BUILD) -j$(JOBS)

run: build
	@scripts/run-main.sh $(BUILD)

test: build
	@ctest --test-dir $(BUILD) -j$(JOBS) --output-on-failure

bench: build
	@bench/run.sh $(BUILD)

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

asan: deps
	@$(MAKE) --no-print-directory BUILD=build-asan CMAKE_FLAGS="-DCMAKE_BUILD_TYPE=Debug -DNESTVP_SANITIZE=ON" test

format:
	@git ls-files '*.h' '*.cpp' | xargs clang-format -i

clean:
	rm -rf $(BUILD) build-asan $(FUZZ_BUILD)
