#!/usr/bin/env bash
# Configure, build and run every test: doctest unit tests and the integration scripts that run
# real services (tests/integration/README.md). Extra arguments go to ctest (e.g. -R integration).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

cmake -S . -B build -G Ninja
ninja -C build
ctest --test-dir build --output-on-failure -j2 "$@"
