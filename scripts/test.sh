#!/usr/bin/env bash
# Installs dependencies, builds everything with the tests and runs the whole suite with CTest
# (core GoogleTest, UI Qt Test offscreen, golden CLI runs). With CI=true (or --sanitizers) it also
# runs all of them again under AddressSanitizer + UndefinedBehaviorSanitizer, and the UI job tests
# under ThreadSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
jobs=$(nproc)
export QT_QPA_PLATFORM=offscreen

cmake -S . -B build-test -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSLIMPACK_WARNINGS_AS_ERRORS=ON >/dev/null
cmake --build build-test -j"$jobs"
ctest --test-dir build-test --output-on-failure -j"$jobs"

if [ "${CI:-}" = "true" ] || [ "${1:-}" = "--sanitizers" ]; then
  echo "== core, CLI and UI tests under ASan + UBSan"
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DSLIMPACK_BUILD_BENCH=OFF -DSLIMPACK_ENABLE_CUDA=OFF -DSLIMPACK_SANITIZE=address,undefined >/dev/null
  cmake --build build-asan -j"$jobs"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-asan --output-on-failure -j"$jobs"
  echo "== UI job tests under TSan"
  cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSLIMPACK_BUILD_BENCH=OFF \
    -DSLIMPACK_ENABLE_CUDA=OFF -DSLIMPACK_SANITIZE=thread >/dev/null
  cmake --build build-tsan -j"$jobs" --target tsan_targets
  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/tests/ui/tsan.supp" \
    ctest --test-dir build-tsan --output-on-failure -j"$jobs" -L tsan
fi
