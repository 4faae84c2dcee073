#!/usr/bin/env bash
# Makes sure what ladder needs is installed. Usage: scripts/deps.sh build|plots|schemas
#   build: compiler, CMake, fmt, nlohmann/json, CLI11, Google Benchmark, GoogleTest, Python 3
#   plots: matplotlib for the figure scripts
#   schemas: jsonschema 4.0 or later for the schema test (tests/plots/test_schemas.py), which
#            reports skipped without it, so failing to install it only warns
# As root on Debian/Ubuntu, missing packages are installed with apt-get; otherwise the exact
# command is printed. The CUDA Toolkit itself must already be installed (NVIDIA's packages).
set -euo pipefail
what=${1:-build}
missing=()

need_header() { [ -e "/usr/include/$1" ] || missing+=("$2"); }
need_cmd() { command -v "$1" >/dev/null 2>&1 || missing+=("$2"); }

install_or_explain() {
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "deps: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "deps: missing packages; run: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
}

if [ "$what" = build ]; then
  need_cmd g++ g++
  need_cmd make make
  need_cmd cmake cmake
  need_cmd git git
  need_cmd python3 python3
  need_header fmt/core.h libfmt-dev
  need_header nlohmann/json.hpp nlohmann-json3-dev
  need_header CLI/CLI.hpp libcli11-dev
  need_header benchmark/benchmark.h libbenchmark-dev
  need_header gtest/gtest.h libgtest-dev
  install_or_explain
  if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ] && [ -z "${CUDACXX:-}" ]; then
    echo "deps: the CUDA Toolkit (nvcc) was not found; install it, or set CUDACXX to nvcc's path" >&2
    exit 1
  fi
elif [ "$what" = plots ]; then
  python3 -c 'import matplotlib' 2>/dev/null && exit 0
  missing+=(python3-matplotlib)
  install_or_explain
  # apt serves the system Python; a python3 from elsewhere (pyenv, conda) needs pip.
  python3 -c 'import matplotlib' 2>/dev/null ||
    python3 -m pip install -q -r "$(dirname "$0")/../plots/requirements.txt"
  python3 -c 'import matplotlib' 2>/dev/null || {
    echo "deps: could not install matplotlib for $(command -v python3)" >&2
    exit 1
  }
elif [ "$what" = schemas ]; then
  has_jsonschema() { python3 -c 'import jsonschema; jsonschema.Draft202012Validator' 2>/dev/null; }
  has_jsonschema && exit 0
  # The distribution's package where it is recent enough (Debian 12, Ubuntu 24.04: 4.10); pip
  # into the user's site-packages for an older one (Ubuntu 22.04: 3.2) or a python3 from
  # elsewhere (pyenv, conda).
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-jsonschema >/dev/null 2>&1 ||
      { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-jsonschema >/dev/null 2>&1; } || true
  fi
  has_jsonschema || python3 -m pip install -q --user "jsonschema>=4" >/dev/null 2>&1 || true
  has_jsonschema ||
    echo "deps: jsonschema 4.0 or later could not be installed for $(command -v python3) (pip install jsonschema): the schema test reports skipped" >&2
else
  echo "usage: scripts/deps.sh build|plots|schemas" >&2
  exit 2
fi
