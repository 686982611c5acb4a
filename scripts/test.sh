#!/usr/bin/env bash
# Installs dependencies, builds everything with the tests and runs the whole suite with CTest
# (core GoogleTest, UI Qt Test offscreen, golden CLI runs, the install layout, the PyTorch
# runtime's pytest suite and mypy in the virtual environment scripts/runtime-env.sh creates).
# With --sanitizers it then runs scripts/sanitizers.sh too (ASan+UBSan and TSan builds), as CI
# does.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
bash scripts/runtime-env.sh   # PyTorch 2.x from PyPI in .venv, for the runtime's tests
jobs=$(nproc)
export QT_QPA_PLATFORM=offscreen

# The quick start's build folder and flags (Release, warnings as errors), with the tests on: after
# scripts/quickstart.sh only the tests compile, not the whole project a second time.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DSLIMPACK_WARNINGS_AS_ERRORS=ON \
  -DSLIMPACK_BUILD_TESTS=ON >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"

if [ "${1:-}" = "--sanitizers" ]; then
  bash scripts/sanitizers.sh
fi
