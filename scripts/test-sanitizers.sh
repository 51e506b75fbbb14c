#!/usr/bin/env bash
# The second build CI runs: everything under ASan + UBSan, built with Debian's clang so the same
# build also holds the libFuzzer harnesses (fuzz/). Runs the unit tests (which run the
# sanitized slurmtopo binary for every CLI test), replays every kept fuzz finding, then fuzzes
# each reader for FUZZ_SECONDS (default 10) from seeds in ../shared, samples/ and tests/bad/.
# The integration tests are left to the normal build: ibsim's LD_PRELOAD shim and ASan's
# runtime both want to be first in the preload list.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

seconds=${FUZZ_SECONDS:-10}
build=build-sanitize
# -O1 and line tables only: what ASan's stack traces need (file:line of every frame), in less
# compile time than -O2 -g (graph/grouping.cc: 7.0-8.5 s against 9.3-9.7 s, 2-vCPU VM, loaded).
cmake -S . -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
  -DSLURMTOPO_FUZZ=ON $(command -v ccache >/dev/null && echo -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
ninja -C "$build" slurmtopo slurmtopo_tests $(cd fuzz && find . -name '*_fuzzer.cc' -printf '%f\n' | sed 's/\.cc$//')

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=suppressions=$PWD/scripts/lsan.supp  # libibnetdisc's own leak, nothing of ours
ctest --test-dir "$build" --output-on-failure -j2 -E '^(integration|layout)/'

scripts/fuzz.sh "$build" "$seconds"
