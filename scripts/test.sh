#!/usr/bin/env bash
# Configure, build and run every test: doctest unit tests and the integration scripts that run
# real services (tests/integration/README.md). Extra arguments go to ctest (e.g. -R integration).
# An integration test skips (CTest "Skipped") when a service, a tool or root is missing; with
# SLURMTOPO_NO_SKIPS=1 (as .ci/run sets it) a skip fails the run, so a missing install step
# cannot hide behind a green result.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# ccache, where installed (.ci/run installs it), makes a rebuild of unchanged sources free.
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B build -G Ninja "${launcher[@]}"
ninja -C build
log=$(mktemp)
trap 'rm -f "$log"' EXIT
ctest --test-dir build --output-on-failure -j2 "$@" | tee "$log"
if [[ ${SLURMTOPO_NO_SKIPS:-0} == 1 ]] && grep -q '\*\*\*Skipped' "$log"; then
  echo "test.sh: SLURMTOPO_NO_SKIPS=1 and these tests were skipped:" >&2
  grep '\*\*\*Skipped' "$log" >&2
  exit 1
fi
# The second build, with the whole suite (no ctest selection given): the unit tests under
# ASan + UBSan, and every reader fuzzed for a while.
(( $# > 0 )) || scripts/test-sanitizers.sh
