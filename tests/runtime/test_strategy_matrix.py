"""Schedules of every strategy run exactly: for each of the four strategies `slimpack solve
--schedule-out` writes a schedule for the tiny model (p, d, 1F1B or GPipe and the recompute mode
varied across the cases), and `slimpack-run --in-process --check` executes it with every parameter
gradient equal to a single-process reference within 1e-9. One rank at a time in one process keeps
this fast; the gloo path is covered by test_end_to_end."""

import json
import subprocess
import sys

import pytest

LENGTHS = [97, 15, 120, 40, 40, 61, 8, 33, 5]
CASES = [
    # strategy, p, d, schedule, recompute
    ("fixed", 4, 1, "gpipe", "auto"),
    ("balanced", 2, 2, "1f1b", "full"),
    ("sliced", 4, 2, "gpipe", "full"),
    ("slimpack", 4, 1, "1f1b", "auto"),
]


@pytest.mark.parametrize("strategy,p,d,schedule,recompute", CASES)
def test_every_strategy_runs_exactly(slimpack_bin, root, run_script, tmp_path, strategy, p, d,
                                     schedule, recompute):
    lengths = tmp_path / "lengths.json"
    lengths.write_text(json.dumps(LENGTHS))
    sched = tmp_path / "plan.schedule.json"
    solve = [slimpack_bin, "solve", "--lengths", str(lengths), "--costs",
             f"{root}/samples/models/tiny-8x256.json", "--tp", "1", "--pp", str(p), "--dp", str(d),
             "--schedule", schedule, "--strategy", strategy, "--recompute", recompute,
             "--schedule-out", str(sched), "--out", "/dev/null"]
    proc = subprocess.run(solve, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    summary = tmp_path / "summary.json"
    proc = subprocess.run([run_script, str(sched), "--check", "--in-process",
                           "--json", str(summary)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    check = json.loads(summary.read_text())["check"]
    assert check["ok"] and check["max_rel_error"] < 1e-9, check
    doc = json.loads(sched.read_text())
    assert doc["setup"]["strategy"] == strategy
