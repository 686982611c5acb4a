#!/usr/bin/env bash
# Measured against simulated, for each model the runtime can run (docs/runtime.md, "Calibrated on
# one run, checked on the next"): solve batch A, run it with per-unit thread CPU times in the traces,
# fit the cost model to that run (`slimpack fit-costs --trace`), then solve another batch B, run it,
# and price B with the fitted profile (`slimpack simulate --check-trace`): per-unit MAPE, worst
# unit and makespan error on the run the fit never saw.
#   scripts/calibrate-runtime.sh [SLIMPACK] [ENGINES]   (ENGINES: "slimpack" default; add torch-pp)
set -euo pipefail
cd "$(dirname "$0")/.."
slimpack=${1:-$(ls build*/app/cli/slimpack 2>/dev/null | head -n 1)}
engines=${2:-slimpack}
run=app/runtime/slimpack-run
[ -x .venv/bin/python ] || { echo "calibrate-runtime: run scripts/runtime-env.sh first" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo '[400, 150, 60, 320, 100, 45, 220, 75, 32, 15]' >"$tmp/a.json"
echo '[380, 260, 90, 30, 200, 140, 64, 48, 120, 20]' >"$tmp/b.json"
# The CPU's measured costs without their model, so that --hf-config names the model.
.venv/bin/python -c 'import json, sys; d = json.load(open(sys.argv[1])); d.pop("model"); json.dump(d, open(sys.argv[2], "w"))' \
  samples/models/tiny-8x256-cpu.json "$tmp/cpu-costs.json"
echo "== $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $($run --version)"
# name | planner's model options | runtime's model options
models=(
  "built-in tiny-8x256|--costs samples/models/tiny-8x256-cpu.json|"
  "transformers Llama (tests/runtime/hf/llama-small.json)|--costs $tmp/cpu-costs.json --hf-config tests/runtime/hf/llama-small.json|--hf-model tests/runtime/hf/llama-small.json"
)
for engine in $engines; do
  for entry in "${models[@]}"; do
    IFS='|' read -r name plan_model run_model <<<"$entry"
    # torch's runtime runs whole sequences, one backward pack per forward pack (the balanced
    # strategy); its ranges come from torch's profiler, the CPU time from the stage's own clock.
    extra=() timing=(--trace-ranges-only --trace-unit-time cpu) rules=()
    [ "$engine" = torch-pp ] && extra=(--strategy balanced) timing=(--trace-unit-time cpu) rules=(--trace-rules torch-pp)
    for batch in a b; do
      # shellcheck disable=SC2086
      "$slimpack" solve --lengths "$tmp/$batch.json" $plan_model --pp 2 --tp 1 --slice 64 \
        --no-dp-merge "${extra[@]}" --out "$tmp/$batch.plan.json" \
        --schedule-out "$tmp/$batch.schedule.json" >/dev/null
      # shellcheck disable=SC2086
      $run "$tmp/$batch.schedule.json" $run_model --engine "$engine" --trace-dir "$tmp/$batch.traces" \
        "${timing[@]}" >/dev/null
    done
    "$slimpack" fit-costs --trace "$tmp/a.traces" --plan "$tmp/a.schedule.json" "${rules[@]}" \
      --out "$tmp/profile.json" >/dev/null
    # The plan (not the schedule, which fixes its costs) priced with the fitted profile.
    # shellcheck disable=SC2086
    "$slimpack" simulate --plan "$tmp/b.plan.json" $plan_model --pp 2 --tp 1 \
      --cost-profile "$tmp/profile.json" --check-trace "$tmp/b.traces" "${rules[@]}" \
      --json "$tmp/check.json" >/dev/null 2>&1
    .venv/bin/python - "$tmp/check.json" "$name" "$engine" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["trace_check"]
worst = max(abs(u["error"]) for u in c["units"] if u.get("error") is not None)
# The units last their thread CPU time, placed at their wall-clock starts: the makespan of a
# shared machine's wall clock is not what the CPU costs predict, so only per-unit errors count.
priced = f" (priced {c['priced_as']})" if c.get("priced_as") else ""
print(f"{sys.argv[3]:9s} {sys.argv[2]}: {c['matched_units']} units matched; on batch B: per-unit "
      f"MAPE {100 * c['mape']:.1f} %, worst unit {100 * worst:.0f} %, makespan "
      f"{100 * c['makespan_error']:+.0f} %{priced}")
PY
  done
done
