#!/usr/bin/env bash
# The test suite under sanitizers: every test (core, CLI goldens, UI) under AddressSanitizer +
# UndefinedBehaviorSanitizer, and the tests that use worker threads under ThreadSanitizer.
# Usage: scripts/sanitizers.sh [asan|tsan]   (default: both)
# SANITIZERS_BUILD_ONLY=1 builds and runs no test (.ci/run --warm-cache).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh >/dev/null
jobs=$(nproc)
export QT_QPA_PLATFORM=offscreen
which=${1:-all}
# ccache keyed on paths relative to the checkout, so that a new clone (CI's) reuses what an earlier
# clone compiled: the two sanitized trees are over 800 compilations on 2 cores.
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1
fi

if [ "$which" = all ] || [ "$which" = asan ]; then
  echo "== core, CLI and UI tests under ASan + UBSan"
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DSLIMPACK_BUILD_BENCH=OFF -DSLIMPACK_ENABLE_CUDA=OFF -DSLIMPACK_SANITIZE=address,undefined "${launcher[@]}" >/dev/null
  cmake --build build-asan -j"$jobs"
  # Left out: cli.doc_commands (every command the docs show, about 170 runs of code paths the
  # goldens cover one by one) and slurm_sharded_search (real Slurm daemons around the same search
  # the core tests run): together over 15 minutes under ASan, and both run in the plain build;
  # and the runtime's Python tests (label runtime: PyTorch's code, not ours, is what they run
  # there, and they run in the plain build of scripts/test.sh).
  if [ "${SANITIZERS_BUILD_ONLY:-0}" != 1 ]; then
    SLIMPACK_TEST_TIMEOUT_SCALE=4 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
      ctest --test-dir build-asan --output-on-failure -j"$jobs" \
      -E '^(cli\.doc_commands|slurm_sharded_search)$' -LE runtime
  fi
fi
if [ "$which" = all ] || [ "$which" = tsan ]; then
  echo "== worker-thread tests under TSan"
  cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSLIMPACK_BUILD_BENCH=OFF \
    -DSLIMPACK_ENABLE_CUDA=OFF -DSLIMPACK_SANITIZE=thread "${launcher[@]}" >/dev/null
  cmake --build build-tsan -j"$jobs" --target tsan_targets
  if [ "${SANITIZERS_BUILD_ONLY:-0}" != 1 ]; then
    SLIMPACK_TEST_TIMEOUT_SCALE=4 TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/tests/ui/tsan.supp" \
      ctest --test-dir build-tsan --output-on-failure -j"$jobs" -L tsan
  fi
fi
