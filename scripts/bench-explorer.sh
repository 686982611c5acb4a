#!/usr/bin/env bash
# The explorer's jobs against the CLI on the same work, in one run (docs/performance.md, "The
# explorer's jobs against the CLI"): tests/bench/ui_jobs_bench.cpp drives the real window
# (offscreen) and runs `slimpack` for the same work beside it:
#   search   the Search tab's Run (G GPUs, K batches of the default workload) and `slimpack search`;
#   open     a length file opened with a column, until the Gantt painted its plan, and
#            `slimpack simulate --lengths FILE --column A`;
#   column   the workload switched to column B of the same file, and `simulate --column B`.
# Wall and CPU seconds of each, their ratios, and how late the GUI thread served a 10 ms timer
# meanwhile. --load N adds N busy processes at the default priority beside both (a shared
# machine: the explorer's worker priority shows there). Run it once without and once with load.
# The file: a real two-column length file. The default is Azure's public LLM inference trace
# (github.com/Azure/AzurePublicDataset, data/AzureLLMInferenceTrace_conv.csv: ContextTokens and
# GeneratedTokens of 19,366 requests), fetched by you into $SLIMPACK_BENCH_DATA (default
# ~/.cache/slimpack-bench); it is public data and is never committed here.
# Usage: scripts/bench-explorer.sh [--build DIR] [--file F --columns A,B] [--gpus G] [--batches K]
#        [--load N]
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-bench
data=${SLIMPACK_BENCH_DATA:-$HOME/.cache/slimpack-bench}
file=$data/AzureLLMInferenceTrace_conv.csv
columns=ContextTokens,GeneratedTokens
gpus=16
batches=4
load=0
while (($#)); do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --file) file=$2; shift 2 ;;
    --columns) columns=$2; shift 2 ;;
    --gpus) gpus=$2; shift 2 ;;
    --batches) batches=$2; shift 2 ;;
    --load) load=$2; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-explorer: unknown option $1" >&2; exit 2 ;;
  esac
done
if [ ! -r "$file" ]; then
  echo "bench-explorer: $file: not found; fetch Azure's AzureLLMInferenceTrace_conv.csv there" \
    "(github.com/Azure/AzurePublicDataset, data/) or give --file F --columns A,B" >&2
  exit 2
fi
IFS=, read -r first second <<<"$columns"
if [ -z "$first" ] || [ -z "$second" ] || [ "$first" = "$second" ]; then
  echo "bench-explorer: --columns: two different columns, A,B (got '$columns')" >&2
  exit 2
fi
if [ ! -x "$build/tests/bench/slimpack_jobs_bench" ] || [ ! -x "$build/app/cli/slimpack" ]; then
  echo "bench-explorer: building Release into $build" >&2
  bash scripts/deps.sh >/dev/null
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSLIMPACK_BUILD_TESTS=ON \
    -DSLIMPACK_BUILD_BENCH=ON >/dev/null
  cmake --build "$build" -j"$(nproc)" --target slimpack slimpack_jobs_bench
fi
echo "bench-explorer: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $file"
QT_QPA_PLATFORM=offscreen "$build/tests/bench/slimpack_jobs_bench" "$build/app/cli/slimpack" \
  "$file" "$first" "$second" --gpus "$gpus" --batches "$batches" --load "$load" 2> >(grep -v propagateSizeHints >&2)
