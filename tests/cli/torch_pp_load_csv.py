"""`slimpack export torch-pp` against PyTorch itself (CTest runtime.torch_pp_load_csv).

For plans of several strategies, schedules and shapes, every exported CSV is loaded with torch's
own `_PipelineScheduleRuntime._load_csv` (which runs its `_validate_schedule` and, for a
compute_only file, its lowering to communication actions), the compute_comms export must be
exactly torch's lowering of the compute_only one, and the lowered actions must pass torch's dry
run `_simulate_comms_compute` (a deadlock raises there) and `_dump_chrometrace`.

Then one export is run for real: two processes over gloo on the CPU, a toy stage model, the
runtime's `step()` under torch.profiler, one Kineto trace per rank beside the CSV; `slimpack
simulate --check-trace RUN --trace-rules torch-pp` must match every unit of the plan.

usage: torch_pp_load_csv.py SLIMPACK SOURCE_DIR WORK_DIR   (exit 77: torch lacks the runtime)
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import types

SKIP = 77


def run(cmd: list[str], cwd: str) -> subprocess.CompletedProcess:
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    if p.returncode != 0:
        raise SystemExit(f"failed ({p.returncode}): {' '.join(cmd)}\n{p.stdout}\n{p.stderr}")
    return p


def runtime(stages: int, microbatches: int):
    from torch.distributed.pipelining import schedules as S

    # _PipelineScheduleRuntime reads only these of its stages until it runs.
    stage_like = types.SimpleNamespace(num_stages=stages, group_size=stages, group_rank=0)
    return S._PipelineScheduleRuntime([stage_like], microbatches)


def read_rows(path: str) -> list[list[str]]:
    import csv

    with open(path, newline="") as f:
        return [[c for c in row if c] for row in csv.reader(f)]


def check_export(slimpack: str, src: str, plan: str, work: str, name: str) -> dict:
    from torch.distributed.pipelining import schedules as S

    only = os.path.join(work, f"{name}.compute_only.csv")
    comms = os.path.join(work, f"{name}.compute_comms.csv")
    summary = json.loads(run([slimpack, "export", "torch-pp", plan, "--out", only, "--json", "-"],
                             src).stdout)
    run([slimpack, "export", "torch-pp", plan, "--out", comms, "--format", "compute_comms"], src)
    stages, mbs = summary["stages"], summary["microbatches"]

    rt = runtime(stages, mbs)
    rt._load_csv(only, format="compute_only")  # validates, then lowers
    lowered = {r: [str(a) for a in acts] for r, acts in rt.pipeline_order_with_comms.items()}
    rows = read_rows(comms)
    assert [lowered[r] for r in sorted(lowered)] == rows, (
        f"{name}: the compute_comms export is not torch's lowering of the compute_only one:\n"
        f"torch: {lowered}\nours:  {rows}")
    rt2 = runtime(stages, mbs)
    rt2._load_csv(comms, format="compute_comms")
    assert {r: [str(a) for a in acts] for r, acts in rt2.pipeline_order_with_comms.items()} \
        == lowered

    # torch's dry run knows compute, send, receive and send waits only.
    simulated_kinds = {S.F, S.B, S.I, S.W, S.SEND_F, S.RECV_F, S.SEND_B, S.RECV_B,
                       S.WAIT_SEND_F, S.WAIT_SEND_B}
    order = {r: [a for a in acts if a.computation_type in simulated_kinds]
             for r, acts in rt.pipeline_order_with_comms.items()}
    simulated = S._simulate_comms_compute(order, lambda s: rt.stage_index_to_group_rank[s], stages)
    S._dump_chrometrace(simulated, os.path.join(work, f"{name}.dry-run.json"))
    print(f"ok  {name}: {stages} stages, {mbs} micro-batches, {summary['replicas']} replicas, "
          f"padding {summary['padding']['padding_fraction']:.1%}; torch loads and lowers it")
    return summary


def rank_main(rank: int, world: int, csv_path: str, out_dir: str, mbs: int, port: int) -> None:
    import torch
    import torch.distributed as dist
    from torch.distributed.pipelining import PipelineStage
    from torch.distributed.pipelining.schedules import _PipelineScheduleRuntime

    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world)
    try:
        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.ReLU())
        stage = PipelineStage(model, rank, world, torch.device("cpu"))
        schedule = _PipelineScheduleRuntime([stage], mbs, loss_fn=lambda y, t: ((y - t) ** 2).sum())
        schedule._load_csv(csv_path, format="compute_only")
        x, target = torch.randn(mbs * 4, 8), torch.randn(mbs * 4, 8)
        schedule.step(x) if rank == 0 else schedule.step(target=target)  # warm-up
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
            schedule.step(x) if rank == 0 else schedule.step(target=target)
        prof.export_chrome_trace(os.path.join(out_dir, f"rank{rank}.json"))
    finally:
        dist.destroy_process_group()


def real_run(slimpack: str, src: str, plan: str, work: str) -> None:
    import socket

    import torch.multiprocessing as mp

    run_dir = os.path.join(work, "run")
    shutil.rmtree(run_dir, ignore_errors=True)
    os.makedirs(run_dir)
    csv_path = os.path.join(run_dir, "torch-pp.csv")
    summary = json.loads(run([slimpack, "export", "torch-pp", plan, "--out", csv_path, "--json",
                              "-"], src).stdout)
    assert summary["stages"] == 2 and summary["replicas"] == 1, summary
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    mp.spawn(rank_main, args=(2, csv_path, run_dir, summary["microbatches"], port), nprocs=2)
    out = run([slimpack, "simulate", "--plan", plan, "--check-trace", run_dir, "--trace-rules",
               "torch-pp", "--json", "-"], src).stdout
    check = json.loads(out)["trace_check"]
    units = 2 * 2 * summary["microbatches"]
    assert check["matched_units"] == units, check
    assert check["only_simulated"] == 0 and check["only_measured"] == 0, check
    assert check["rank_table"]["file"] == csv_path, check
    print(f"ok  a real run of torch's runtime: {units} units of {units} matched "
          f"(rules {check['rules']})")


def main() -> int:
    slimpack, src, work = (os.path.abspath(a) for a in sys.argv[1:4])
    try:
        from torch.distributed.pipelining import schedules as S
    except ImportError as e:
        print(f"skipped: {e}")
        return SKIP
    if not hasattr(getattr(S, "_PipelineScheduleRuntime", None), "_load_csv") or \
            not hasattr(S, "_add_wait_send"):
        print("skipped: this PyTorch has no _PipelineScheduleRuntime._load_csv with send waits")
        return SKIP
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    plans = []
    # The samples, then plans solved here: strategies, replicas, schedules, stage counts.
    for sample in ("tiny-p2-fixed", "tiny-p2-balanced"):
        plans.append((sample, os.path.join(src, "samples", "schedules",
                                           f"{sample}.schedule.json")))
    solves = {
        "fixed-p4": ["--strategy", "fixed", "--pp", "4"],
        "balanced-p2-dp2": ["--strategy", "balanced", "--pp", "2", "--dp", "2"],
        "balanced-p3-gpipe": ["--strategy", "balanced", "--pp", "3", "--schedule", "gpipe"],
        "balanced-p4-9packs": ["--strategy", "balanced", "--pp", "4", "--packs", "9"],
    }
    for name, options in solves.items():
        out = os.path.join(work, f"{name}.plan.json")
        run([slimpack, "solve", "--preset", "chat-sft", "--batch-tokens", "65536", *options,
             "--out", out], src)
        plans.append((name, out))
    for name, path in plans:
        check_export(slimpack, src, path, work, name)
    real_run(slimpack, src, plans[0][1], work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
