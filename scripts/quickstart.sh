#!/usr/bin/env bash
# Quick start: install dependencies, build Release, and run the main job on the embedded default
# workload (preset long-sft-128k, seed 42, 1M tokens; Llama-3-8B on H100, p=4, t=8): the slimpack
# strategy is solved and simulated, a Gantt PNG and a JSON summary are written to out/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
# Warnings as errors, as scripts/test.sh builds the same folder with the same flags (so that it
# compiles only the tests).
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DSLIMPACK_WARNINGS_AS_ERRORS=ON \
  -DSLIMPACK_BUILD_TESTS=OFF >/dev/null
cmake --build build -j"$(nproc)"
mkdir -p out
./build/app/cli/slimpack simulate --png out/gantt.png --json out/summary.json --trace out/trace.json
./build/app/cli/slimpack compare --json out/compare.json
echo
echo "Wrote out/gantt.png (Gantt), out/summary.json (metrics), out/trace.json (open in Perfetto), out/compare.json."
if [ -x build/app/explorer/slimpack-explorer ]; then
  echo "Desktop explorer: ./build/app/explorer/slimpack-explorer"
fi
