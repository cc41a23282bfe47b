#!/usr/bin/env bash
# Run the whole test suite: installs dependencies, builds, runs CTest.
#   bash scripts/test.sh              Release build (build/)
#   bash scripts/test.sh --sanitize   ASan + UBSan build (build-asan/)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh "$@"
dir=build
if [ "${1:-}" = "--sanitize" ]; then
  dir=build-asan
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fi
ctest --test-dir "$dir" --output-on-failure -j2 --timeout 600
