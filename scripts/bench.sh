#!/usr/bin/env bash
# Builds Release and prints the speed figures of docs/performance.md: Google Benchmark suites
# (simulator, solvers, trace import, Gantt paint) and end-to-end CLI timings.
# Usage: scripts/bench.sh [BUILD_DIR] [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-bench}
quick=${2:-}
bash scripts/deps.sh >/dev/null
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSLIMPACK_BUILD_TESTS=ON \
  -DSLIMPACK_BUILD_BENCH=ON >/dev/null
cmake --build "$build" -j"$(nproc)" --target slimpack slimpack_bench
cmake --build "$build" -j"$(nproc)" --target slimpack_gantt_bench slimpack_slider_bench 2>/dev/null || true
export QT_QPA_PLATFORM=offscreen
min_time=0.5
[ "$quick" = "--quick" ] && min_time=0.05

echo "== core benchmarks (one core)"
taskset -c 0 "$build/tests/bench/slimpack_bench" --benchmark_min_time="$min_time" \
  --benchmark_counters_tabular=true
if [ -x "$build/tests/bench/slimpack_gantt_bench" ]; then
  echo "== Gantt paint"
  "$build/tests/bench/slimpack_gantt_bench" --benchmark_min_time="$min_time"
fi

if [ -x "$build/tests/bench/slimpack_slider_bench" ]; then
  echo "== slider to painted Gantt (the real window, offscreen)"
  "$build/tests/bench/slimpack_slider_bench" 30 2>/dev/null
fi

echo "== end to end: slimpack simulate on the default workload (best of 5)"
cli=$build/app/cli/slimpack
best=""
for _ in 1 2 3 4 5; do
  start=$(date +%s%N)
  "$cli" simulate --quiet
  end=$(date +%s%N)
  ms=$(( (end - start) / 1000000 ))
  if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
done
echo "slimpack simulate (default preset, slimpack strategy): ${best} ms"
best=""
for _ in 1 2 3; do
  start=$(date +%s%N)
  "$cli" simulate --quiet --png /tmp/slimpack-bench.png
  end=$(date +%s%N)
  ms=$(( (end - start) / 1000000 ))
  if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
done
echo "slimpack simulate --png (default preset): ${best} ms"

echo "== trace import against python3 json.loads (same generated 50 MB trace, same run)"
bash scripts/bench-trace.sh "$cli"
