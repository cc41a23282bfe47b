#!/usr/bin/env bash
# Quick start: install dependencies, build, and run the main job on built-in data.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
./build/apps/frictionlab/frictionlab demo --out frictionlab-demo
