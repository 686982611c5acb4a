"""`slimpack-run --device cuda` on a real GPU: skipped (never failed) where PyTorch sees no CUDA
device, as on CI; run on a GPU machine by scripts/gpu-check.sh.

On one GPU: the units-only mode (every rank's packs in this process, each unit timed with CUDA
events) over the 4-stage sample, and a one-rank schedule spawned as a real NCCL world of one. Both
check the gradients against the single-process reference in float64, and the traces they write are
read back by `slimpack simulate --check-trace` when the program is there."""

import json
import os
import subprocess
import sys

import pytest
import torch

from schedule_maker import make_schedule

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(),
                                reason="no CUDA device visible to PyTorch")

SCHEDULE = ("samples", "schedules", "tiny-p4.schedule.json")
# One stage, asymmetric packs: backward pack 1 regroups atoms of forward packs 0 and 1.
SEQS = [("s0", 40, 0), ("s1", 12, 0), ("s2", 20, 0)]
FWD = [[[("s0", 0, 16)], [("s0", 16, 40), ("s1", 0, 12)], [("s2", 0, 20)]]]
BWD = [[[("s2", 0, 20), ("s0", 24, 40)], [("s0", 8, 24), ("s1", 0, 12)], [("s0", 0, 8)]]]


def _run(run_script, schedule, tmp_path, *extra):
    summary = str(tmp_path / "summary.json")
    proc = subprocess.run([run_script, schedule, "--device", "cuda",
                           "--json", summary, *extra],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    with open(summary) as f:
        return json.load(f)


def _units(schedule):
    with open(schedule) as f:
        doc = json.load(f)
    return sorted((r["rank"], a["op"], a["pack"]) for r in doc["ranks"]
                  for a in r["actions"] if a["op"] in ("F", "B"))


def _check_trace(slimpack_bin, schedule, trace_dir, units):
    proc = subprocess.run([slimpack_bin, "simulate", "--plan", schedule, "--check-trace",
                           trace_dir, "--json", "-"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    check = json.loads(proc.stdout)["trace_check"]
    assert check["matched_units"] == units, check
    assert check["only_simulated"] == 0 and check["only_measured"] == 0, check


def test_units_only_times_every_unit_with_cuda_events(root, run_script, tmp_path):
    schedule = os.path.join(root, *SCHEDULE)
    trace_dir = str(tmp_path / "units")
    summary = _run(run_script, schedule, tmp_path, "--units-only", "--dtype", "float64",
                   "--check", "--iterations", "2", "--trace-dir", trace_dir)
    assert summary["device"] == "cuda" and summary["timing"] == "cuda events"
    assert summary["check"]["ok"] and summary["check"]["max_rel_error"] < 1e-9, summary["check"]
    expected = _units(schedule)
    assert sorted((u["rank"], u["op"], u["pack"]) for u in summary["unit_times"]) == expected
    assert all(u["seconds"] > 0 for u in summary["unit_times"])
    assert len(summary["traces"]) == 4 and all(os.path.getsize(t) > 0 for t in summary["traces"])


def test_units_only_traces_match_the_schedule(slimpack_bin, root, run_script, tmp_path):
    schedule = os.path.join(root, *SCHEDULE)
    trace_dir = str(tmp_path / "units")
    _run(run_script, schedule, tmp_path, "--units-only", "--trace-dir", trace_dir)  # float32
    _check_trace(slimpack_bin, schedule, trace_dir, len(_units(schedule)))


def test_one_rank_runs_as_an_nccl_world_and_matches_the_reference(root, run_script, tmp_path):
    schedule = str(tmp_path / "one-rank.schedule.json")
    with open(schedule, "w") as f:
        json.dump(make_schedule(SEQS, FWD, BWD, stages=1), f)
    trace_dir = str(tmp_path / "traces")
    summary = _run(run_script, schedule, tmp_path, "--dtype", "float64", "--check",
                   "--iterations", "2", "--trace-dir", trace_dir)
    assert summary["mode"] == "spawn" and summary["device"] == "cuda"
    assert summary["world_size"] == 1 and summary["units"] == 6
    assert summary["check"]["ok"] and summary["check"]["max_rel_error"] < 1e-9, summary["check"]
    assert len(summary["iterations"]) == 2
    assert all(it["wall_s"] > 0 and it["loss"] is not None for it in summary["iterations"])
    assert summary["traces"] == [os.path.join(trace_dir, "rank0.json")]


def test_float32_default_on_cuda_refuses_check(root, run_script, tmp_path):
    # float32 is the default on CUDA; --check needs float64 and says so (exit 2), before any run.
    proc = subprocess.run([run_script, os.path.join(root, *SCHEDULE),
                           "--device", "cuda", "--units-only", "--check"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert "--check needs --dtype float64" in proc.stderr
