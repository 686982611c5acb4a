"""`slimpack-run`: the command line. Refuses up front, spawns one process per rank, checks and
summarises.

Exit codes follow the `slimpack` CLI: 0 success, 2 bad input or usage (one line naming the file or
field and the reason, never a traceback), 1 a run that failed (a rank crashed, or `--check` found
gradients that differ from the single-process reference).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from typing import Any, Optional

from . import __version__
from .errors import RunError, UserError

PROG = "slimpack-run"
DEFAULT_TOLERANCE = 1e-9


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # usage errors: exit 2 with one line, like slimpack
        sys.stderr.write(f"{PROG}: {message} (run '{PROG} --help')\n")
        sys.exit(2)


class _Version(argparse.Action):
    """--version on one unwrapped line (argparse's own wraps it at the terminal width)."""

    def __call__(self, parser, namespace, values, option_string=None):
        sys.stdout.write(f"{PROG} {__version__} (package in "
                         f"{os.path.dirname(os.path.abspath(__file__))})\n")
        parser.exit(0)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog=PROG, description=(
        "Execute a slimpack-schedule file (slimpack solve --schedule-out) with PyTorch: one "
        "process per (replica, stage) rank, every action in the file's order, asymmetric packs "
        "with slice-level causality, recomputed layers and the replicas' gradient all-reduce. "
        "See docs/runtime.md."),
        epilog="Exit codes: 0 success, 2 bad input or usage, 1 the run failed or --check found "
               "a difference.")
    p.add_argument("schedule", help="the schedule file (JSON, format slimpack-schedule)")
    p.add_argument("--device", choices=("cpu", "cuda"), default="cpu",
                   help="cpu: gloo, one process per rank on this machine (default); cuda: NCCL, "
                        "one process per GPU (untested in CI)")
    p.add_argument("--check", action="store_true",
                   help="compare every parameter gradient with a single-process forward and "
                        "backward of the whole sequences; fail (exit 1) above --tolerance")
    p.add_argument("--tolerance", type=float, default=DEFAULT_TOLERANCE,
                   help=f"largest relative gradient error --check accepts (default "
                        f"{DEFAULT_TOLERANCE:g})")
    p.add_argument("--trace-dir", metavar="DIR",
                   help="write one profiler trace per rank, DIR/rank<r>.json (the last iteration)")
    p.add_argument("--trace-ranges-only", action="store_true",
                   help="write only the runtime's own ranges (F<k>, B<k>, waits, sends) to the "
                        "traces, timed without torch.profiler: smaller and faster to write")
    p.add_argument("--trace-unit-time", choices=("wall", "cpu"), default="wall",
                   help="duration of the F<k>/B<k> ranges in the traces: wall clock (default) or "
                        "the rank's thread CPU time, which time-slicing of ranks on few cores "
                        "does not inflate (for fit-costs --trace on a CPU run; needs "
                        "--trace-ranges-only)")
    p.add_argument("--json", metavar="FILE", help="write the summary as JSON (- = stdout)")
    p.add_argument("--iterations", type=int, default=1,
                   help="run the schedule this many times (timing; the last one is traced "
                        "and checked; default 1)")
    p.add_argument("--seed", type=int, default=1234,
                   help="seed of the weights and token ids (default 1234)")
    p.add_argument("--dtype", choices=("float64", "float32", "bfloat16"), default=None,
                   help="parameter and activation type (default float64 on cpu, float32 on cuda; "
                        "--check needs float64)")
    p.add_argument("--threads", type=int, default=1,
                   help="PyTorch threads per rank (default 1: ranks share the cores)")
    p.add_argument("--timeout", type=float, default=300.0,
                   help="seconds a rank waits for a message or collective before failing "
                        "(default 300)")
    p.add_argument("--in-process", action="store_true",
                   help="run all ranks in this process without torch.distributed (debugging; "
                        "no traces or timings per rank)")
    p.add_argument("--units-only", action="store_true",
                   help="run every rank's packs in this one process on one device, each unit "
                        "timed alone (CUDA events on a GPU, the thread clock on a CPU): per-unit "
                        "times for fit-costs --trace with a single GPU")
    p.add_argument("--version", action=_Version, nargs=0,
                   help="print the version and the package folder it runs from, and exit")
    return p


def main(argv: Optional[list[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return _main(args)
    except UserError as e:
        sys.stderr.write(f"{PROG}: {e}\n")
        return 2
    except RunError as e:
        sys.stderr.write(f"{PROG}: {e}\n")
        return 1
    except KeyboardInterrupt:
        sys.stderr.write(f"{PROG}: interrupted\n")
        return 130


def _check_args(args: argparse.Namespace) -> None:
    if args.dtype is None:
        args.dtype = "float64" if args.device == "cpu" else "float32"
    if args.check and args.dtype != "float64":
        raise UserError(f"--check needs --dtype float64 (got {args.dtype}): the tolerance "
                        f"{args.tolerance:g} is a float64 one")
    if args.iterations < 1:
        raise UserError(f"--iterations: must be at least 1 (got {args.iterations})")
    if args.threads < 1:
        raise UserError(f"--threads: must be at least 1 (got {args.threads})")
    if args.timeout <= 0:
        raise UserError(f"--timeout: must be positive (got {args.timeout:g})")
    if not (args.tolerance > 0):
        raise UserError(f"--tolerance: must be positive (got {args.tolerance:g})")
    if args.trace_unit_time == "cpu" and not args.trace_ranges_only:
        raise UserError("--trace-unit-time cpu needs --trace-ranges-only (the profiler's ranges "
                        "keep their wall-clock durations)")
    if args.in_process and (args.trace_dir or args.device != "cpu"):
        raise UserError("--in-process runs on the CPU without traces: drop --trace-dir and "
                        "--device cuda")
    if args.units_only and args.in_process:
        raise UserError("--units-only and --in-process are exclusive (--units-only already runs "
                        "every rank in this process)")
    if args.units_only and (args.trace_ranges_only or args.trace_unit_time != "wall"):
        raise UserError("--units-only writes its own unit times (CUDA events or the thread "
                        "clock): drop --trace-ranges-only and --trace-unit-time")


def _main(args: argparse.Namespace) -> int:
    _check_args(args)
    try:
        import torch
    except ImportError:
        raise UserError("PyTorch is not installed for this Python "
                        f"({sys.executable}): install python3-torch") from None
    from .schedule import load_schedule
    from .support import check_supported, device_problem, world_problem
    from .validate import validate_schedule
    from .worker import DTYPES

    s = load_schedule(args.schedule)
    problem = device_problem(args.device)
    if problem:
        raise UserError(problem)
    check_supported(s, args.device, torch.tensor([], dtype=DTYPES[args.dtype]).element_size())
    problem = None if args.units_only else world_problem(s, args.device)  # one device is enough
    if problem:
        raise UserError(problem)
    validate_schedule(s)
    if args.trace_dir:
        try:
            os.makedirs(args.trace_dir, exist_ok=True)
        except OSError as e:
            raise UserError(f"{args.trace_dir}: cannot create the trace folder: "
                            f"{e.strerror}") from None
    torch.set_num_threads(max(args.threads, 1))
    if args.in_process:
        summary = _run_in_process(s, args)
    elif args.units_only:
        summary = _run_units_only(s, args)
    else:
        summary = _run_spawned(s, args)
    _print_summary(s, summary, sys.stderr if args.json == "-" else sys.stdout)
    if args.json:
        text = json.dumps(summary, indent=1)
        if args.json == "-":
            sys.stdout.write(text + "\n")
        else:
            try:
                with open(args.json, "w", encoding="utf-8") as f:
                    f.write(text + "\n")
            except OSError as e:
                raise UserError(f"{args.json}: cannot write: {e.strerror}") from None
    check = summary["check"]
    if check is not None and not check["ok"]:
        raise RunError(f"--check failed: gradient of {check['worst_parameter']} differs from the "
                       f"single-process reference by {check['max_rel_error']:.3g} (relative), "
                       f"above {args.tolerance:g}")
    return 0


def _run_in_process(s, args: argparse.Namespace) -> dict[str, Any]:
    from .local import run_local
    from .worker import DTYPES

    t0 = time.perf_counter()
    engines = run_local(s, args.seed, DTYPES[args.dtype])
    wall = time.perf_counter() - t0
    rank_grads = []
    for e in engines:
        rank_grads.append({n: p.grad.detach() for n, p in e.model.named_parameters()
                           if p.grad is not None})
    loss = sum(e.loss_sum for e in engines if e.is_last)
    check = _check(s, args, rank_grads) if args.check else None
    return {"schedule": args.schedule, "device": "cpu", "mode": "in-process",
            "world_size": s.world_size(), "check": check,
            "iterations": [{"wall_s": wall, "loss": loss}],
            "units": sum(1 for rk in s.ranks for a in rk.actions if a.op in ("F", "B")),
            "traces": [], "unit_times": []}


def _run_units_only(s, args: argparse.Namespace) -> dict[str, Any]:
    import torch

    from .units import run_units_only
    from .worker import DTYPES

    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, str(args.threads))
    device = torch.device("cuda", 0) if args.device == "cuda" else torch.device("cpu")
    run = run_units_only(s, args.seed, DTYPES[args.dtype], device, args.iterations,
                         args.trace_dir)
    rank_grads = [{n: p.grad.detach().cpu() for n, p in e.model.named_parameters()
                   if p.grad is not None} for e in run["engines"]]
    check = _check(s, args, rank_grads) if args.check else None
    return {"schedule": args.schedule, "device": args.device, "mode": "units-only",
            "world_size": s.world_size(), "dtype": args.dtype, "check": check,
            "iterations": [{"wall_s": run["wall_s"], "loss": run["loss"]}],
            "units": len(run["units"]), "traces": run["traces"],
            "timing": "cuda events" if args.device == "cuda" else "thread cpu time",
            "unit_times": run["units"]}


def _run_spawned(s, args: argparse.Namespace) -> dict[str, Any]:
    import torch
    import torch.multiprocessing as mp

    from .worker import RunConfig, rank_main

    # Debian's torch does its matrix products in OpenBLAS, whose own thread pool ignores
    # torch.set_num_threads: without this every rank spins nproc BLAS threads, the ranks fight
    # over the cores (8x slower on 2 cores) and thread CPU time misses the work.
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(args.threads)
    scratch = tempfile.mkdtemp(prefix="slimpack-run-")
    try:
        cfg = RunConfig(schedule_path=os.path.abspath(args.schedule), device=args.device,
                        dtype=args.dtype, seed=args.seed, iterations=args.iterations,
                        threads=args.threads, timeout_s=args.timeout, scratch=scratch,
                        trace_dir=os.path.abspath(args.trace_dir) if args.trace_dir else None,
                        save_grads=args.check, trace_profiler=not args.trace_ranges_only,
                        cpu_durations=args.trace_unit_time == "cpu")
        t0 = time.perf_counter()
        spawned = time.time()
        try:
            mp.spawn(rank_main, args=(cfg,), nprocs=s.world_size(), join=True)
        except Exception as e:  # a rank failed: report its own message
            raise _rank_failure(scratch, s.world_size(), e) from None
        total_wall = time.perf_counter() - t0
        joined = time.time()
        results = []
        for r in range(s.world_size()):
            with open(os.path.join(scratch, f"rank{r}.result.json"), encoding="utf-8") as f:
                results.append(json.load(f))
        rank_grads = []
        if args.check:
            rank_grads = [torch.load(os.path.join(scratch, f"rank{r}.grads.pt"))
                          for r in range(s.world_size())]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    check = _check(s, args, rank_grads) if args.check else None
    iterations = []
    for i in range(args.iterations):
        losses = [res["iterations"][i]["loss"] for res in results
                  if res["iterations"][i]["loss"] is not None]
        iterations.append({"wall_s": max(res["iterations"][i]["wall_s"] for res in results),
                           "loss": sum(losses) if losses else None})
    unit_times = [u for res in results for u in res["units"]]
    return {"schedule": args.schedule, "device": args.device, "mode": "spawn",
            "world_size": s.world_size(), "dtype": args.dtype, "threads_per_rank": args.threads,
            "cpu_count": os.cpu_count(), "check": check, "iterations": iterations,
            "run_wall_s": total_wall, "phases_s": _phases(results, spawned, joined),
            "units": sum(1 for rk in s.ranks for a in rk.actions if a.op in ("F", "B")),
            "traces": [os.path.join(args.trace_dir, f"rank{r}.json")
                       for r in range(s.world_size())] if args.trace_dir else [],
            "unit_times": unit_times}


def _phases(results: list[dict], spawned: float, joined: float) -> dict[str, float]:
    """Where the run's wall time went (slowest rank per phase): process start with the torch
    import, connecting, the iterations, writing traces, and exit."""
    ph = [res["phases"] for res in results]
    return {"start_s": max(p["started"] for p in ph) - spawned,
            "connect_s": max(p["connected"] - p["started"] for p in ph),
            "iterations_s": max(p["ran"] - p["connected"] for p in ph),
            "traces_s": max(p["traced"] - p["ran"] for p in ph),
            "exit_s": joined - max(p["traced"] for p in ph)}


def _rank_failure(scratch: str, world: int, exc: Exception) -> Exception:
    for r in range(world):
        path = os.path.join(scratch, f"rank{r}.error")
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                err = json.load(f)
            if err["kind"] == "user":
                return UserError(err["message"])
            tb = err["traceback"].rstrip().splitlines()
            where = next((ln.strip() for ln in reversed(tb) if ln.strip().startswith("File ")), "")
            return RunError(f"rank {r} failed: {err['message']}" + (f" ({where})" if where else ""))
    return RunError(f"a rank failed: {exc}")


def _check(s, args: argparse.Namespace, rank_grads: list[dict]) -> dict[str, Any]:
    from .reference import compare_gradients, reference_gradients

    t0 = time.perf_counter()
    ref, ref_loss = reference_gradients(s, args.seed)
    worst, worst_name, worst_rank, compared = 0.0, "", -1, 0
    for r, grads in enumerate(rank_grads):
        want = {n: ref[n] for n in grads}
        expected = _expected_names(s, r, ref)
        missing = sorted(expected - set(grads))
        if missing:
            return {"ok": False, "max_rel_error": 1.0, "worst_parameter": missing[0],
                    "worst_rank": r, "parameters": compared, "reference_loss": ref_loss,
                    "reference_s": time.perf_counter() - t0, "tolerance": args.tolerance}
        err, name = compare_gradients(grads, want)
        compared += len(want)
        if err > worst or not worst_name:
            worst, worst_name, worst_rank = err, name, r
    return {"ok": worst <= args.tolerance, "max_rel_error": worst, "worst_parameter": worst_name,
            "worst_rank": worst_rank, "parameters": compared, "reference_loss": ref_loss,
            "reference_s": time.perf_counter() - t0, "tolerance": args.tolerance}


def _expected_names(s, r: int, ref: dict) -> set[str]:
    rk = s.ranks[r]
    names = {n for n in ref if n.startswith("layers.")
             and rk.first_layer <= int(n.split(".")[1]) < rk.first_layer + rk.layers}
    if rk.stage == 0:
        names.add("embed")
    if rk.stage == s.setup.stages - 1:
        names |= {"final_norm", "head"}
    return names


def _print_summary(s, summary: dict[str, Any], out) -> None:
    st = s.setup
    m = st.model
    print(f"schedule   {s.path}: {st.stages} stages x {st.replicas} replicas, {st.schedule}, "
          f"model {m.name} ({m.layers} layers, hidden {m.hidden}), "
          f"{len(s.sequences)} sequences, {s.total_tokens()} tokens", file=out)
    print(f"run        {summary['mode']} on {summary['device']}, {summary['world_size']} ranks, "
          f"{summary['units']} units", file=out)
    for i, it in enumerate(summary["iterations"]):
        loss = f", loss {it['loss']:.12g}" if it.get("loss") is not None else ""
        print(f"iteration  {i + 1}: {it['wall_s']:.3f} s{loss}", file=out)
    c = summary["check"]
    if c is not None:
        verdict = "ok" if c["ok"] else "FAILED"
        print(f"check      {verdict}: max relative gradient error {c['max_rel_error']:.3g} over "
              f"{c['parameters']} parameters (worst {c['worst_parameter']}, tolerance "
              f"{c['tolerance']:g})", file=out)
    if summary["traces"]:
        print(f"traces     {len(summary['traces'])} files in "
              f"{os.path.dirname(summary['traces'][0])}", file=out)
