#!/usr/bin/env bash
# slimpack-run under a real single-node Slurm (scripts/slurm-local.sh): `srun -n 2 slimpack-run
# SCHEDULE --launcher env --check` joins the world Slurm started (SLURM_PROCID, SLURM_NTASKS,
# SLURM_LOCALID) and passes the check; rank 0 writes the summary, which says the world came from
# Slurm. MASTER_ADDR is given as 127.0.0.1: a chroot (CI's fresh Debian root) cannot resolve its
# own host name, which is what slimpack-run derives from the node list otherwise (unit-tested in
# tests/runtime/test_envlaunch.py).
# Usage: runtime_srun_test.sh SOURCE_DIR PYTHON. Exit 77 (skipped) only when the Slurm packages
# cannot be installed.
set -euo pipefail
src=$(realpath "$1")
python=$2
if ! bash "$src/scripts/slurm-local.sh" install; then
  echo "SKIPPED: the Slurm packages (slurmctld slurmd slurm-client munge) cannot be installed"
  exit 77
fi
tmp=$(mktemp -d)
trap 'bash "$src/scripts/slurm-local.sh" stop "$tmp/slurm"; rm -rf "$tmp"' EXIT
bash "$src/scripts/slurm-local.sh" start "$tmp/slurm" >/dev/null
source "$tmp/slurm/env"

"$python" - "$tmp/sched.json" <<PY
import json, sys
sys.path.insert(0, "$src/tests/runtime")
from schedule_maker import make_schedule
seqs = [("s0", 40, 0), ("s1", 12, 0), ("s2", 20, 0)]
fwd = [[[("s0", 0, 16)], [("s0", 16, 40), ("s1", 0, 12)], [("s2", 0, 20)]]]
bwd = [[[("s2", 0, 20), ("s0", 24, 40)], [("s0", 8, 24), ("s1", 0, 12)], [("s0", 0, 8)]]]
json.dump(make_schedule(seqs, fwd, bwd, stages=2, recompute=[1, 0]), open(sys.argv[1], "w"))
PY
cd "$tmp"
rc=0
SLIMPACK_PYTHON=$python MASTER_ADDR=127.0.0.1 MASTER_PORT=$((20000 + $$ % 20000)) \
  timeout 600 srun -n 2 --export=ALL "$src/app/runtime/slimpack-run" sched.json --launcher env \
  --check --timeout 120 --json summary.json >srun.out 2>&1 || rc=$?
if [ $rc -ne 0 ]; then
  echo "FAIL: srun slimpack-run exited $rc"; cat srun.out; tail -5 "$tmp/slurm/log/"*.log; exit 1
fi
"$python" - <<'PY'
import json
s = json.load(open("summary.json"))
assert s["world_source"] == "slurm" and s["world_size"] == 2, s
assert s["check"]["ok"] and s["check"]["max_rel_error"] < 1e-9, s["check"]
print(f"OK: srun -n 2, world from Slurm, check max relative error {s['check']['max_rel_error']:.3g}")
PY
