# nestvp: `make run` and `make test` work on a fresh Debian bookworm machine.
BUILD ?= build
JOBS  ?= $(shell nproc)
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release

.PHONY: all deps configure build run test bench asan format clean

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

asan: deps
	@$(MAKE) --no-print-directory BUILD=build-asan CMAKE_FLAGS="-DCMAKE_BUILD_TYPE=Debug -DNESTVP_SANITIZE=ON" test

format:
	@git ls-files '*.h' '*.cpp' | xargs clang-format -i

clean:
	rm -rf $(BUILD) build-asan
