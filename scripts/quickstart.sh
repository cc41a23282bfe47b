#!/usr/bin/env bash
# Quick start: install dependencies, build, install (CLI, C++ package, Python package), and run
# the main job on built-in data.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
# The CLI, the C++ package and the Python package into /usr/local (Debian's /usr/bin/python3
# finds /usr/local/lib/python3.X/dist-packages): `frictionlab` and `import frictionlab` work after.
cmake --install build > /dev/null
./build/apps/frictionlab/frictionlab demo --out frictionlab-demo
