#!/usr/bin/env bash
# The runtime's GPU path on a machine with an NVIDIA GPU and a CUDA build of PyTorch (CI has no
# GPU: there tests/runtime/test_cuda.py skips). One short run, everything under OUT_DIR:
#   pytest.log         the runtime's whole pytest suite, test_cuda.py's GPU tests included
#                      (SLIMPACK_BIN, when given, lets the tests read the traces back)
#   units-<dtype>.tgz  `slimpack-run --units-only --device cuda` over
#                      samples/schedules/llama-8l-p2.schedule.json (Llama-3-8B's layer shapes, 8
#                      layers, p = 2, 18 sliced packs a stage), float32 and bfloat16, 3 iterations:
#                      every unit timed with CUDA events; rank traces and the summary JSON
#   env.txt            the GPU, driver, PyTorch, CUDA and NCCL versions
# Back on a machine with slimpack, `slimpack simulate --plan SCHEDULE --check-trace DIR` compares
# the measured units with the simulated ones and `slimpack fit-costs --trace DIR --plan SCHEDULE`
# fits a profile from them (docs/runtime.md, "On GPUs").
# Usage: scripts/gpu-check.sh OUT_DIR [SLIMPACK_BIN]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/gpu-check.sh OUT_DIR [SLIMPACK_BIN]}
mkdir -p "$out"
out=$(cd "$out" && pwd)
[ -n "${2:-}" ] && export SLIMPACK_BIN=$(realpath "$2")
py=${PYTHON:-python3}
rc=0

{
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  "$py" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda,
      "nccl", ".".join(map(str, torch.cuda.nccl.version())), torch.cuda.get_device_name(0))'
} >"$out/env.txt" 2>&1
cat "$out/env.txt"

echo "== runtime pytest suite (GPU tests included)"
start=$(date +%s)
PYTHONUNBUFFERED=1 "$py" tests/runtime/run_tests.py -q -rs >"$out/pytest.log" 2>&1 || rc=1
tail -n 8 "$out/pytest.log"
echo "   $(($(date +%s) - start)) s"

schedule=samples/schedules/llama-8l-p2.schedule.json
for dtype in float32 bfloat16; do
  echo "== units-only on CUDA, $dtype"
  dir=$(mktemp -d)
  mkdir -p "$dir/units-$dtype"
  if PYTHONUNBUFFERED=1 "$py" app/runtime/slimpack-run "$schedule" --units-only --device cuda \
      --dtype "$dtype" --iterations 3 --trace-dir "$dir/units-$dtype" \
      --json "$dir/units-$dtype/summary.json" >"$dir/units-$dtype/run.log" 2>&1; then
    tail -n 6 "$dir/units-$dtype/run.log"
  else
    rc=1
    tail -n 20 "$dir/units-$dtype/run.log"
  fi
  tar -czf "$out/units-$dtype.tgz" -C "$dir" "units-$dtype"
  rm -rf "$dir"
done
exit $rc
