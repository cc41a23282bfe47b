#!/usr/bin/env bash
# Configure and build frictionlab into build/ (Release) or, with --sanitize, into build-asan/
# (RelWithDebInfo at -O1 -g1 + AddressSanitizer + UndefinedBehaviorSanitizer, tests only).
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache (installed by install-deps.sh) when it is there: a rebuild of an unchanged source, in this
# checkout or another one of the same tree, is a cache hit (paths relative to the checkout).
launcher=()
if command -v ccache > /dev/null; then
  export CCACHE_BASEDIR="$PWD"
  # The build directory left out of the hash although -g1 records it: another checkout hits too.
  export CCACHE_NOHASHDIR=1
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
if [ "${1:-}" = "--sanitize" ]; then
  # -O1 -g1 (line tables only): the sanitizers' usual optimisation level and enough debug
  # information for their stack traces; compiles the Ceres-heavy sources 2.2x faster than the
  # default -O2 -g (measured on identify/families.cpp: 92 s against 202 s).
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFRICTIONLAB_SANITIZE=ON \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" \
    -DFRICTIONLAB_BUILD_BENCHMARKS=OFF -DPython3_EXECUTABLE=/usr/bin/python3 "${launcher[@]}" > /dev/null
  cmake --build build-asan -j2
else
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPython3_EXECUTABLE=/usr/bin/python3 \
    "${launcher[@]}" > /dev/null
  cmake --build build -j2
fi
