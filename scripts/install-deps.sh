#!/usr/bin/env bash
# Install frictionlab's build and test dependencies from Debian 12 packages (run as root, or
# with sudo available). Every dependency is a Debian -dev package; nothing is downloaded by the
# build itself.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
  build-essential cmake ninja-build pkg-config ccache \
  libeigen3-dev libceres-dev libsundials-dev libcli11-dev nlohmann-json3-dev \
  libgtest-dev libgmock-dev libbenchmark-dev libmatio-dev \
  python3 python3-numpy python3-scipy python3-cmaes \
  python3-dev pybind11-dev python3-pybind11 python3-pytest python3-tqdm python3-pandas \
  python3-setuptools python3-pip python3-venv \
  chromium fonts-liberation python3-pil \
  python3-distributed python3-psycopg2 postgresql \
  liburdfdom-dev libtinyxml-dev liborocos-kdl-dev libmujoco-dev \
  clang-15 libfuzzer-15-dev libomp-15-dev clang-format-14 universal-ctags \
  gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib qemu-user > /dev/null
echo "frictionlab: dependencies installed"
