#!/usr/bin/env bash
# Our simulator against Megatron-LM's pipeline_simulator on the same plain-1F1B plans, op for op,
# timed in the same run (scripts/megatron_sim_compare.py says how). Builds Release first.
# Usage: scripts/bench-megatron-sim.sh MEGATRON_LM_CHECKOUT [BUILD_DIR] [--stages P --packs M ...]
#   The checkout must have megatron/pipeline_simulator (Megatron-LM pull request 2959, commit
#   c828a9e1). Needs python3-networkx (installed here when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ] || [ ! -d "$1" ]; then
  echo "usage: scripts/bench-megatron-sim.sh MEGATRON_LM_CHECKOUT [BUILD_DIR] [options]" >&2
  exit 2
fi
megatron=$(cd "$1" && pwd)
shift
build=build-bench
if [ $# -gt 0 ] && [[ $1 != --* ]]; then
  build=$1
  shift
fi
bash scripts/deps.sh >/dev/null
if ! /usr/bin/python3 -c 'import networkx' 2>/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-networkx >/dev/null
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSLIMPACK_BUILD_TESTS=ON \
  -DSLIMPACK_BUILD_BENCH=ON >/dev/null
cmake --build "$build" -j"$(nproc)" --target slimpack slimpack_bench
/usr/bin/python3 scripts/megatron_sim_compare.py --megatron "$megatron" \
  --slimpack "$build/app/cli/slimpack" --bench "$build/tests/bench/slimpack_bench" "$@"
