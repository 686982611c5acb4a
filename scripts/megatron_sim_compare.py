#!/usr/bin/env python3
"""Our simulator against Megatron-LM's pipeline_simulator, side by side, on the same plans.

Megatron-LM's `megatron/pipeline_simulator` (pull request 2959, commit c828a9e1) times a pipeline
schedule by building a networkx DiGraph of actions and sweeping it in topological order. Its
kFkBSchedule with k = 1 is plain 1F1B with zero-cost P2P, which is what our simulator computes
for a plan with explicit pack times and `p2p_latency` 0. This script:

1. writes one such plan (p stages, M packs, forward times in a fixed 8-value pattern, backward
   twice the forward, as in tests/bench/core_sim_bench.cpp) as a slimpack-plan file;
2. runs Megatron's simulator on the same costs in this process and checks every op's start and
   end against `slimpack simulate --plan FILE --ops-csv` (op for op, exact: the times are sums of
   binary fractions);
3. times both in process (Megatron: schedule, graph and solve, as its test_with_schedule does;
   ours: simulate() on the parsed plan, Google Benchmark's BM_SimPlanFile) and as whole processes
   (interpreter or binary start, reading or building the plan, simulating, exiting), and prints
   the ratios with the medians they come from.

Megatron's solver.py imports matplotlib for its plotting helpers only; when matplotlib is absent
the script installs an empty stand-in module so that Debian's python3-networkx is all it needs.

Usage: megatron_sim_compare.py --megatron DIR --slimpack BIN --bench BIN [--stages 16]
       [--packs 4096] [--repeat 3] [--json OUT]
"""
import argparse
import csv
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import types

MEGATRON_SIM = os.path.join("megatron", "pipeline_simulator", "simulator")


def forward_times(packs):
    return [1.0 + 0.125 * ((m * 7) % 8) for m in range(packs)]


def write_plan(path, stages, packs):
    fwd = forward_times(packs)
    plan = {
        "format": "slimpack-plan", "version": 1, "stages": stages, "schedule": "1f1b",
        "warmup_extra": 0, "vchunks": 1, "p2p_latency": 0.0, "strategy": "megatron-compare",
        "description": f"plain 1F1B, {stages} stages, {packs} packs, explicit times",
        "sequences": [{"id": f"s{m}", "length": 1024 * (1 + (m * 7) % 8)} for m in range(packs)],
        "forward_packs": [{"segments": [{"seq": f"s{m}"}], "time": fwd[m]} for m in range(packs)],
        "backward_packs": [{"segments": [{"seq": f"s{m}"}], "time": 2.0 * fwd[m]}
                           for m in range(packs)],
    }
    with open(path, "w", encoding="utf-8") as f:
        json.dump(plan, f)


def import_megatron(checkout):
    sim_dir = os.path.join(checkout, MEGATRON_SIM)
    if not os.path.isfile(os.path.join(sim_dir, "solver.py")):
        sys.exit(f"megatron_sim_compare: {sim_dir}/solver.py not found: pass the root of a "
                 "Megatron-LM checkout that has megatron/pipeline_simulator (commit c828a9e1)")
    try:
        import matplotlib  # noqa: F401  (plotting only; absent on a minimal Debian)
    except ImportError:
        for name in ("matplotlib", "matplotlib.pyplot", "matplotlib.patches"):
            sys.modules[name] = types.ModuleType(name)
        sys.modules["matplotlib"].colormaps = {}
    sys.path.insert(0, sim_dir)
    import schedules  # noqa: E402
    import solver  # noqa: E402
    return schedules, solver


def megatron_timeline(schedules, solver, stages, packs):
    """Megatron's test_with_schedule, returning the timeline instead of only the makespan."""
    fwd = forward_times(packs)
    schedule = schedules.kFkBSchedule(stages, 1, fwd, [2.0 * f for f in fwd])
    s = solver.Solver()
    for actions in schedule.order_deps():
        s.add_deps(filter(None, actions))
    for actions in schedule.data_deps():
        s.add_deps(actions)
    s.add_costs(schedule.cost_map())
    return s.solve()


def median_seconds(fn, repeat, children=False):
    """Median wall and CPU seconds of fn() over `repeat` runs (CPU of child processes if asked:
    on a loaded machine wall time counts waiting for a core, CPU time does not)."""
    walls, cpus = [], []
    who = resource.RUSAGE_CHILDREN if children else resource.RUSAGE_SELF
    for _ in range(repeat):
        r0 = resource.getrusage(who)
        t0 = time.perf_counter()
        fn()
        walls.append(time.perf_counter() - t0)
        r1 = resource.getrusage(who)
        cpus.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def check_op_for_op(timeline, ops_csv):
    ours = {}
    with open(ops_csv, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if row["kind"] in ("forward", "backward"):
                key = (int(row["stage"]), row["kind"][0].upper(), int(row["pack"]))
                ours[key] = (float(row["start"]), float(row["end"]))
    theirs = {}
    for action, stats in timeline.items():
        theirs[(action.stage_id, str(action.action_type), action.data_id)] = (
            float(stats.start_time), float(stats.end_time))
    if set(ours) != set(theirs):
        only_ours = sorted(set(ours) - set(theirs))[:5]
        only_theirs = sorted(set(theirs) - set(ours))[:5]
        return len(theirs), f"op sets differ: only ours {only_ours}, only Megatron's {only_theirs}"
    worst = 0.0
    for key, (start, end) in theirs.items():
        ostart, oend = ours[key]
        worst = max(worst, abs(start - ostart), abs(end - oend))
    if worst > 1e-9:
        return len(theirs), f"start/end differ by up to {worst}"
    return len(theirs), None


def whole_process_seconds(cmd, repeat):
    def run():
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return median_seconds(run, repeat, children=True)


def our_in_process_seconds(bench, plan, repeat, default_malloc=False):
    """BM_SimPlanFile's medians. slimpack_bench, like slimpack and the explorer, keeps freed
    memory for reuse (core/common/memory_reuse.h); default_malloc measures glibc's defaults."""
    env = dict(os.environ, SLIMPACK_BENCH_PLAN=plan)
    if default_malloc:
        env["SLIMPACK_BENCH_DEFAULT_MALLOC"] = "1"
    out = subprocess.run(
        [bench, "--benchmark_filter=^BM_SimPlanFile", "--benchmark_format=json",
         f"--benchmark_repetitions={max(repeat, 3)}", "--benchmark_min_time=0.2"],
        check=True, capture_output=True, text=True, env=env).stdout
    result = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") == "median":
            name = b["run_name"].split("/")[1]  # BM_SimPlanFile/<variant>
            result[name] = (b["real_time"] / 1e3, b["cpu_time"] / 1e3)  # ms -> s
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--megatron", required=True, help="root of a Megatron-LM checkout")
    ap.add_argument("--slimpack", help="the slimpack binary")
    ap.add_argument("--bench", help="the slimpack_bench binary")
    ap.add_argument("--megatron-only", action="store_true",
                    help="only run Megatron's simulator once (the whole-process timing)")
    ap.add_argument("--stages", type=int, default=16)
    ap.add_argument("--packs", type=int, default=4096)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", help="write the figures here")
    args = ap.parse_args()

    schedules, solver = import_megatron(args.megatron)
    if args.megatron_only:
        megatron_timeline(schedules, solver, args.stages, args.packs)
        return 0
    if not args.slimpack or not args.bench:
        ap.error("--slimpack and --bench are required")
    work = tempfile.mkdtemp(prefix="megatron-compare.")
    plan = os.path.join(work, "plan.json")
    ops = os.path.join(work, "ops.csv")
    write_plan(plan, args.stages, args.packs)
    subprocess.run([args.slimpack, "simulate", "--plan", plan, "--ops-csv", ops, "--quiet"],
                   check=True)

    timeline = megatron_timeline(schedules, solver, args.stages, args.packs)
    n_ops, mismatch = check_op_for_op(timeline, ops)
    print(f"plan: plain 1F1B, p = {args.stages}, M = {args.packs}: {n_ops} compute ops")
    if mismatch:
        print(f"op for op: MISMATCH: {mismatch}")
        return 1
    print(f"op for op: all {n_ops} starts and ends equal")

    meg_in = median_seconds(
        lambda: megatron_timeline(schedules, solver, args.stages, args.packs), args.repeat)
    ours_in = our_in_process_seconds(args.bench, plan, args.repeat)
    ours_plain = our_in_process_seconds(args.bench, plan, args.repeat, default_malloc=True)
    meg_proc = whole_process_seconds(
        [sys.executable, os.path.abspath(__file__), "--megatron", args.megatron, "--megatron-only",
         "--stages", str(args.stages), "--packs", str(args.packs)], args.repeat)
    ours_proc = whole_process_seconds(
        [args.slimpack, "simulate", "--plan", plan, "--quiet"], max(args.repeat, 5))

    rows = [
        ("in process, Megatron (schedule + graph + solve)", meg_in, None),
        ("in process, ours: simulate(), every result", ours_in["full"], meg_in),
        ("in process, ours: simulate(), no legality check", ours_in["no_legality"], meg_in),
        ("in process, ours: every result, glibc's default malloc", ours_plain["full"], meg_in),
        ("whole process, Megatron (python3 start to exit)", meg_proc, None),
        ("whole process, ours (slimpack simulate --plan)", ours_proc, meg_proc),
    ]
    print(f"{'median of the runs':52s} {'wall':>11s} {'ratio':>7s} {'CPU':>11s} {'ratio':>7s}")
    for name, (wall, cpu), ref in [(n, t, r) for n, t, r in rows]:
        wr = f"{ref[0] / wall:6.0f}x" if ref else ""
        cr = f"{ref[1] / cpu:6.0f}x" if ref else ""
        print(f"{name:52s} {wall * 1e3:8.2f} ms {wr:>7s} {cpu * 1e3:8.2f} ms {cr:>7s}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"stages": args.stages, "packs": args.packs, "compute_ops": n_ops,
                       "op_for_op_equal": True,
                       "seconds_wall_cpu": {name: list(t) for name, t, _ in rows},
                       "in_process_ratio_wall": meg_in[0] / ours_in["full"][0],
                       "in_process_ratio_cpu": meg_in[1] / ours_in["full"][1],
                       "in_process_ratio_cpu_default_malloc":
                           meg_in[1] / ours_plain["full"][1],
                       "process_ratio_wall": meg_proc[0] / ours_proc[0],
                       "process_ratio_cpu": meg_proc[1] / ours_proc[1]}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
