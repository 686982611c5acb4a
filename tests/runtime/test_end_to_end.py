"""End to end on schedules the real `slimpack solve --schedule-out` writes for the tiny model:
solve, run with `slimpack-run --check` (one gloo process per rank on the CPU), then read the rank
traces back with `slimpack simulate --check-trace` and `slimpack fit-costs --trace`.

Case A: p = 4, a drain (Mf - Mb = w > 0), Mf != Mb, and a backward pack that regroups forward
segments (consumes atoms of two forward packs for one segment). Case B: d = 2 replicas with
recomputed layers on every stage, so the all-reduce and the recompute path run."""

import json
import os
import subprocess

import pytest

from slimpack_runtime.schedule import load_schedule

TOL = 1e-9
LENGTHS = [150, 60, 32, 100, 45, 20, 75, 15]


def _solve(slimpack_bin, root, tmp, name, *args):
    """Solves the batch; returns the schedule and the plan with the options it was priced with."""
    lengths = os.path.join(tmp, "lengths.json")
    with open(lengths, "w") as f:
        json.dump(LENGTHS, f)
    schedule = os.path.join(tmp, f"{name}.schedule.json")
    plan = os.path.join(tmp, f"{name}.plan.json")
    model = ["--costs", os.path.join(root, "samples", "models", "tiny-8x256.json"), "--tp", "1"]
    cmd = [slimpack_bin, "solve", "--lengths", lengths, *model, "--no-dp-merge", "--slice", "32",
           *args, "--out", plan, "--schedule-out", schedule]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return schedule, ["--plan", plan, *model]


def _run(run_script, schedule, tmp, *extra):
    summary = os.path.join(tmp, "summary.json")
    trace_dir = os.path.join(tmp, "traces")
    cmd = [run_script, schedule, "--check", "--trace-dir", trace_dir,
           "--json", summary, *extra]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    with open(summary) as f:
        return json.load(f), trace_dir


def _slimpack(*cmd):
    proc = subprocess.run(list(cmd), capture_output=True, text=True)
    return proc.returncode, proc.stdout, proc.stderr


def _check_traces(slimpack_bin, fit_costs, schedule, plan_args, trace_dir, units, ranks):
    """Every unit of the schedule is in the traces once: --check-trace over all rank files maps
    100 % of them with 0 only simulated and 0 only measured; fit-costs --trace fits from them
    through the schedule's own model (the tiny one, not the CLI's default Llama-3-8B)."""
    traces = [os.path.join(trace_dir, f"rank{r}.json") for r in range(ranks)]
    # The folder is a whole run: the schedule that ran is beside its traces (the explorer's Open
    # Run takes the folder as it is).
    with open(os.path.join(trace_dir, "schedule.json")) as f, open(schedule) as g:
        assert f.read() == g.read()
    for given in (",".join(traces), trace_dir):  # the rank files, or their folder
        rc, out, err = _slimpack(slimpack_bin, "simulate", "--plan", schedule, "--check-trace",
                                 given, "--json", "-")
        assert rc == 0, err
        check = json.loads(out)["trace_check"]
        assert check["only_simulated"] == 0 and check["only_measured"] == 0, check
        assert check["matched_units"] == units, check
    fitted = os.path.join(os.path.dirname(trace_dir), "fitted.json")
    fit_costs(",".join(traces), schedule, fitted)
    profile = json.load(open(fitted))
    assert profile["format"] == "slimpack-cost-profile"
    # Fitted through the schedule's cost setup: its "GPU" (one CPU core), not the CLI's H100.
    with open(schedule) as f:
        gpu = json.load(f)["setup"]["costs"]["gpu"]["name"]
    assert gpu == "cpu-core-fp64-flops" and profile["device"] == gpu, profile


def _summary_ok(summary, schedule):
    s = load_schedule(schedule)
    assert summary["check"]["ok"] and summary["check"]["max_rel_error"] < TOL, summary["check"]
    units = sum(1 for rk in s.ranks for a in rk.actions if a.op in ("F", "B"))
    assert summary["units"] == units == len(summary["unit_times"])
    assert len(summary["traces"]) == s.world_size()
    for u in summary["unit_times"]:
        assert u["wall_s"] > 0 and u["cpu_s"] > 0
    return s, units


ATTENTION = pytest.mark.parametrize("attention", ["sdpa", "reference"])


@ATTENTION
def test_asymmetric_drain_p4(slimpack_bin, fit_costs, root, run_script, tmp_path, attention):
    tmp = str(tmp_path)
    # Nine forward packs: the asymmetric drain (Mb = Mf - w) this test runs. Automatic packs now
    # also try every count from 1 and pick a faster symmetric plan of 3 packs on this tiny batch.
    schedule, plan_args = _solve(slimpack_bin, root, tmp, "a", "--pp", "4", "--packs", "9")
    s = load_schedule(schedule)
    rep = s.replicas[0]
    mf, mb = len(rep.forward_packs), len(rep.backward_packs)
    assert s.setup.stages == 4 and mf != mb
    assert s.setup.warmup_extra > 0 and mb == mf - s.setup.warmup_extra  # the drain
    regroups = [bp for bp in rep.backward_packs
                for seg in bp.segments
                if len({c.forward_pack for c in bp.consumes if c.seq == seg.seq}) > 1]
    assert regroups, "no backward pack regroups forward segments"
    summary, trace_dir = _run(run_script, schedule, tmp, "--attention", attention)
    assert summary["attention"] == attention and summary["torch_version"].startswith("2.")
    s, units = _summary_ok(summary, schedule)
    _check_traces(slimpack_bin, fit_costs, schedule, plan_args, trace_dir, units, s.world_size())


@ATTENTION
def test_replicas_and_recompute(slimpack_bin, fit_costs, root, run_script, tmp_path, attention):
    tmp = str(tmp_path)
    schedule, plan_args = _solve(slimpack_bin, root, tmp, "b", "--pp", "2", "--dp", "2",
                                 "--recompute", "2")
    s = load_schedule(schedule)
    assert s.setup.replicas == 2 and all(n > 0 for n in s.setup.recompute_layers)
    assert all(any(a.op == "ALLREDUCE" for a in rk.actions) for rk in s.ranks)
    summary, trace_dir = _run(run_script, schedule, tmp, "--trace-ranges-only",
                              "--attention", attention)
    assert summary["attention"] == attention
    s, units = _summary_ok(summary, schedule)
    _check_traces(slimpack_bin, fit_costs, schedule, plan_args, trace_dir, units, s.world_size())


def test_sampler_with_the_real_solver(slimpack_bin, root, tmp_path):
    from slimpack_runtime.sampler import SlimPackSampler

    lengths = LENGTHS + [64, 30, 90, 12]
    s = SlimPackSampler(lengths, samples_per_iteration=6, slimpack=slimpack_bin,
                        workdir=str(tmp_path), shuffle=True, seed=1,
                        solve_args=["--costs", os.path.join(root, "samples", "models",
                                                            "tiny-8x256.json"),
                                    "--tp", "1", "--pp", "2", "--no-dp-merge", "--slice", "32"])
    seen = []
    for i in range(len(s)):
        it = s.iteration(i)
        for rank in range(it.schedule.world_size()):
            packs = it.rank_packs(rank)
            assert sum(r.end - r.begin for p in packs for r in p) == sum(
                lengths[j] for j in it.samples)
        seen += it.samples
    assert sorted(seen) == list(range(len(lengths)))
