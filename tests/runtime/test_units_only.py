"""`slimpack-run --units-only`: every rank's packs in one process, each unit timed alone (the
thread clock here; CUDA events on a GPU, which CI does not have). The gradients are still the
single-process reference's, every unit of the schedule is timed once, and the traces it writes are
read back by `--check-trace` (all units, none unmatched) and fitted by `fit-costs --trace` through
the schedule's own model."""

import json
import os
import subprocess
import sys

SCHEDULE = ("samples", "schedules", "tiny-p4.schedule.json")


def _slimpack(*cmd):
    proc = subprocess.run(list(cmd), capture_output=True, text=True)
    return proc.returncode, proc.stdout, proc.stderr


def test_units_only_times_every_unit_and_fits(slimpack_bin, fit_costs, root, run_script,
                                              tmp_path):
    schedule = os.path.join(root, *SCHEDULE)
    trace_dir = str(tmp_path / "units")
    summary_path = str(tmp_path / "summary.json")
    proc = subprocess.run([run_script, schedule, "--units-only", "--check",
                           "--trace-dir", trace_dir, "--json", summary_path],
                          capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    summary = json.load(open(summary_path))
    assert summary["mode"] == "units-only" and summary["timing"] == "thread cpu time"
    assert summary["check"]["ok"] and summary["check"]["max_rel_error"] < 1e-9, summary["check"]

    with open(schedule) as f:
        doc = json.load(f)
    expected = sorted((r["rank"], a["op"], a["pack"]) for r in doc["ranks"]
                      for a in r["actions"] if a["op"] in ("F", "B"))
    timed = sorted((u["rank"], u["op"], u["pack"]) for u in summary["unit_times"])
    assert timed == expected  # every unit once, on its rank
    assert all(u["seconds"] > 0 for u in summary["unit_times"])
    assert summary["traces"] == [os.path.join(trace_dir, f"rank{r}.json")
                                 for r in range(len(doc["ranks"]))]

    rc, out, err = _slimpack(slimpack_bin, "simulate", "--plan", schedule, "--check-trace",
                             trace_dir, "--json", "-")
    assert rc == 0, err
    check = json.loads(out)["trace_check"]
    assert check["matched_units"] == len(expected), check
    assert check["only_simulated"] == 0 and check["only_measured"] == 0, check

    fitted = str(tmp_path / "fitted.json")
    fit_costs(trace_dir, schedule, fitted)
    profile = json.load(open(fitted))
    assert profile["device"] == doc["setup"]["costs"]["gpu"]["name"]
    # The measured durations are the ones the profile was fitted to (one sample per unit).
    assert len(profile["samples"]) == len(expected), len(profile["samples"])


def test_units_only_and_in_process_are_exclusive(root, run_script):
    proc = subprocess.run([run_script, os.path.join(root, *SCHEDULE),
                           "--units-only", "--in-process"], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "--units-only and --in-process are exclusive" in proc.stderr
    assert "Traceback" not in proc.stderr
