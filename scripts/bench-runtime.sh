#!/usr/bin/env bash
# The runtime's speed figures of docs/performance.md, measured in one run on this machine:
#  1. the sdpa attention path against the reference path, per unit (thread CPU time, float64,
#     --units-only: every unit alone), on the tiny sample schedule and on a longer batch whose
#     attention dominates (sequences of 512 to 2048 tokens, sliced at 256), rounds alternating;
#  2. the start-up of a 4-rank spawn run (processes starting with torch, the rendezvous) beside a
#     bare `import torch`.
# Usage: scripts/bench-runtime.sh [SLIMPACK] [ROUNDS]   (default build*/app/cli/slimpack, 3)
set -euo pipefail
cd "$(dirname "$0")/.."
slimpack=${1:-$(ls build*/app/cli/slimpack 2>/dev/null | head -n 1)}
rounds=${2:-3}
py=.venv/bin/python
[ -x "$py" ] || { echo "bench-runtime: run scripts/runtime-env.sh first" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo '[2048, 1536, 1024, 512, 512]' >"$tmp/long.json"
"$slimpack" solve --lengths "$tmp/long.json" --costs samples/models/tiny-8x256.json --pp 2 \
  --slice 256 --no-dp-merge --schedule-out "$tmp/long.schedule.json" >/dev/null
echo "== runtime $(app/runtime/slimpack-run --version)"
echo "== $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
for name in tiny-p4:samples/schedules/tiny-p4.schedule.json long-p2:$tmp/long.schedule.json; do
  sched=${name#*:}
  for r in $(seq "$rounds"); do
    for att in sdpa reference; do
      app/runtime/slimpack-run "$sched" --units-only --attention $att --iterations 2 \
        --json "$tmp/${name%%:*}.$att.$r.json" >/dev/null
    done
  done
done
"$py" - "$tmp" "$rounds" <<'PY'
import json, statistics, sys
tmp, rounds = sys.argv[1], int(sys.argv[2])
for name in ("tiny-p4", "long-p2"):
    ratios, totals = [], {"sdpa": [], "reference": []}
    for r in range(1, rounds + 1):
        units = {}
        for att in ("sdpa", "reference"):
            s = json.load(open(f"{tmp}/{name}.{att}.{r}.json"))
            last = [u for u in s["unit_times"] if u["iteration"] == max(v["iteration"] for v in s["unit_times"])]
            units[att] = {(u["rank"], u["name"]): u["seconds"] for u in last}
            totals[att].append(sum(units[att].values()))
        ratios += [units["sdpa"][k] / units["reference"][k] for k in units["sdpa"]]
    q = statistics.quantiles(ratios, n=10)
    print(f"{name}: {len(ratios) // rounds} units x {rounds} rounds; sdpa/reference per unit: "
          f"median {statistics.median(ratios):.2f}, p10 {q[0]:.2f}, p90 {q[-1]:.2f}; all units: "
          f"sdpa {min(totals['sdpa']):.3f}-{max(totals['sdpa']):.3f} s, reference "
          f"{min(totals['reference']):.3f}-{max(totals['reference']):.3f} s")
PY
for r in $(seq "$rounds"); do
  t0=$(date +%s.%N); "$py" -c 'import torch' ; t1=$(date +%s.%N)
  app/runtime/slimpack-run samples/schedules/tiny-p4.schedule.json --trace-ranges-only \
    --json "$tmp/start.$r.json" >/dev/null
  "$py" - "$tmp/start.$r.json" "$(echo "$t1 - $t0" | bc)" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
p = s["phases_s"]
print(f"4-rank spawn run: start {p['start_s']:.2f} s (processes and torch), connect "
      f"{p['connect_s']:.2f} s, iteration {p['iterations_s']:.2f} s, whole run "
      f"{s['run_wall_s']:.2f} s; a bare 'import torch' {float(sys.argv[2]):.2f} s")
PY
done
