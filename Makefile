# Thin wrapper: install missing Debian packages, configure CMake (Release, build/),
# build, and run the demo or the tests. `make fuzz` builds the libFuzzer harnesses of
# tests/fuzz with clang in build-fuzz/ and runs each for FUZZ_SECONDS (not part of test).
# `make test-sanitize` builds the LibTorch-free part (lib, the five numerics tools, their
# tests) with ASan and UBSan in build-sanitize/ and runs its tests (.ci/run does both).
# `make lint` checks the formatting (clang-format) and runs clang-tidy (scripts/lint): JOBS
# processes, over TIDY=all (default), core (the LibTorch-free files), torch or none.
# `make bench` builds the tools and regenerates every figure quoted in README.md and bench/*.md
# (the registry bench/figures.tsv, its commands bench/probes.tsv) into bench/figures.md, and exits 1
# when the run contradicts a quoted figure by more than 30% (bench/figures.py says how); not part
# of test. BENCH_ONLY=ids, probes or areas selects; BENCH_QUICK=1 (or `make bench-quick`) runs
# smaller sizes as a smoke test; BENCH_REUSE=1 rereads the last run's logs; BENCH_STRICT=1 makes a
# slower time fatal on a loaded machine too. Takes 39 minutes on 2 idle cores (2026-11-26).
# `make test-cluster` installs Slurm and munge, starts a one-node Slurm cluster on this
# machine (scripts/slurm-cluster) and checks that experiments/slurm/'s job array recipe gives
# `make -j2`'s files byte for byte (tests/cluster/sgd_array.sh; 1 to 2 minutes on 2 cores).
BUILD ?= build
SANITIZE_BUILD ?= build-sanitize
JOBS ?= 2
FUZZ_BUILD ?= build-fuzz
# make lint's compile commands: one per file (no unity batches), configured only, never built.
LINT_BUILD ?= build-lint
FUZZ_SECONDS ?= 30
TIDY ?= all
MAKEFLAGS += --no-print-directory
BENCH_ONLY ?=
BENCH_QUICK ?=
BENCH_REUSE ?=
BENCH_STRICT ?=
BENCH_TOOLS = canary-gen dp-train eps-from-scores eps-gauss2 rdp-compose score-dump

.PHONY: all deps configure build test test-sanitize test-cluster demo bench bench-quick fuzz lint clean

all: build

deps:
	@scripts/install-deps

configure: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j$(JOBS)

test: build
	@ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS)

test-sanitize: deps
	@cmake -S . -B $(SANITIZE_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDPAUDIT_WITH_TORCH=OFF -DDPAUDIT_WITH_CUDA=OFF \
	  -DDPAUDIT_SANITIZE=address,undefined $(CMAKE_ARGS) >/dev/null
	@cmake --build $(SANITIZE_BUILD) -j$(JOBS)
	@ctest --test-dir $(SANITIZE_BUILD) --output-on-failure -j$(JOBS)

test-cluster: build
	@scripts/install-deps --cluster
	@BIN=$(abspath $(BUILD))/bin SRC=$(CURDIR) PYTHON=/usr/bin/python3 bash tests/cluster/sgd_array.sh

demo: build
	@scripts/demo $(BUILD)/bin

bench: configure
	@cmake --build $(BUILD) -j$(JOBS) --target $(BENCH_TOOLS)
	@BUILD=$(BUILD) BENCH_ONLY="$(BENCH_ONLY)" BENCH_QUICK=$(BENCH_QUICK) BENCH_REUSE=$(BENCH_REUSE) \
	  BENCH_STRICT=$(BENCH_STRICT) /usr/bin/python3 bench/figures.py

bench-quick:
	@$(MAKE) bench BENCH_QUICK=1

fuzz:
	@scripts/install-deps --fuzz
	@CXX=clang++ cmake -S tests/fuzz -B $(FUZZ_BUILD) >/dev/null
	@cmake --build $(FUZZ_BUILD) -j$(JOBS)
	@tests/fuzz/run $(FUZZ_BUILD) $(FUZZ_SECONDS)

lint:
	@scripts/install-deps --lint
	@cmake -S . -B $(LINT_BUILD) -DCMAKE_BUILD_TYPE=Release -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DDPAUDIT_UNITY=OFF -DDPAUDIT_WITH_CUDA=OFF $(CMAKE_ARGS) >/dev/null
	@JOBS=$(JOBS) TIDY=$(TIDY) scripts/lint $(LINT_BUILD)

clean:
	rm -rf $(BUILD) $(FUZZ_BUILD) $(SANITIZE_BUILD) $(LINT_BUILD)
