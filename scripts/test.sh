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

cmake -S . -B build-test -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSLIMPACK_WARNINGS_AS_ERRORS=ON >/dev/null
cmake --build build-test -j"$jobs"
ctest --test-dir build-test --output-on-failure -j"$jobs"

if [ "${1:-}" = "--sanitizers" ]; then
  bash scripts/sanitizers.sh
fi
