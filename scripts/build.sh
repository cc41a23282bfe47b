#!/usr/bin/env bash
# Configure and build frictionlab into build/ (Release) or, with --sanitize, into build-asan/
# (RelWithDebInfo + AddressSanitizer + UndefinedBehaviorSanitizer, tests only).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--sanitize" ]; then
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFRICTIONLAB_SANITIZE=ON \
    -DFRICTIONLAB_BUILD_BENCHMARKS=OFF -DPython3_EXECUTABLE=/usr/bin/python3 > /dev/null
  cmake --build build-asan -j2
else
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPython3_EXECUTABLE=/usr/bin/python3 > /dev/null
  cmake --build build -j2
fi
