"""`slimpack-run` (also `python -m slimpack_runtime`): the command line. Prepares and refuses up
front, starts the ranks (or joins the world torchrun / Slurm started), checks and summarises.

Exit codes follow the `slimpack` CLI: 0 success, 2 bad input or usage (one line naming the file or
field and the reason, never a traceback), 1 a run that failed (a rank crashed or stopped
responding, or `--check` found a difference from the single-process reference).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import typing
from typing import Any, Optional

from . import MIN_TORCH, __version__
from .errors import RunError, UserError

PROG = "slimpack-run"
DEFAULT_TOLERANCE = 1e-9


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> typing.NoReturn:  # usage errors: exit 2 with one line, like slimpack
        sys.stderr.write(f"{PROG}: {message} (run '{PROG} --help')\n")
        sys.exit(2)


def version_line() -> str:
    try:
        import torch

        tv = str(torch.__version__)
    except ImportError:
        tv = "not installed"
    return (f"{PROG} {__version__} (package in {os.path.dirname(os.path.abspath(__file__))}; "
            f"torch {tv}; Python {sys.version.split()[0]} at {sys.executable})")


class _Version(argparse.Action):
    """--version on one unwrapped line (argparse's own wraps it at the terminal width)."""

    def __call__(self, parser, namespace, values, option_string=None):
        sys.stdout.write(version_line() + "\n")
        parser.exit(0)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog=PROG, description=(
        "Execute a slimpack-schedule file (slimpack solve --schedule-out) with PyTorch: one "
        "process per (replica, stage) rank, every action in the file's order, asymmetric packs "
        "with slice-level causality, recomputed layers and the replicas' gradient all-reduce; "
        "or train: a new schedule per iteration from a dataset, with AdamW. See docs/runtime.md."),
        epilog="Exit codes: 0 success, 2 bad input or usage, 1 the run failed or --check found "
               "a difference.")
    p.add_argument("schedule", nargs="?",
                   help="the schedule file (JSON, format slimpack-schedule); not with --dataset")
    p.add_argument("--device", choices=("cpu", "cuda"), default="cpu",
                   help="cpu: gloo (default); cuda: NCCL, one process per GPU")
    p.add_argument("--launcher", choices=("spawn", "env"), default="spawn",
                   help="spawn: start one process per rank on this machine (default); env: join "
                        "the world torchrun or srun started (RANK/WORLD_SIZE or SLURM_PROCID/"
                        "SLURM_NTASKS)")
    p.add_argument("--attention", choices=("sdpa", "reference"), default="sdpa",
                   help="sdpa: torch's scaled_dot_product_attention with a lower-right causal "
                        "mask (default); reference: materialised scores (two einsums)")
    p.add_argument("--hf-model", metavar="FILE_OR_DIR",
                   help="run transformers' own model (Llama, Mistral, Qwen2) instead of the "
                        "built-in one: a config.json (random weights from --seed) or a folder "
                        "with config.json and, if present, its safetensors weights; nothing is "
                        "downloaded. The schedule must be planned for it (slimpack solve "
                        "--hf-config)")
    p.add_argument("--check", action="store_true",
                   help="compare losses, gradients and (when training) parameters with a "
                        "single-process run of the same batches; fail (exit 1) above --tolerance")
    p.add_argument("--tolerance", type=float, default=DEFAULT_TOLERANCE,
                   help=f"largest relative error --check accepts (default {DEFAULT_TOLERANCE:g})")
    train = p.add_argument_group("training")
    train.add_argument("--iterations", type=int, default=1,
                       help="iterations to run (default 1); the last is traced")
    train.add_argument("--optimizer", choices=("none", "adamw"), default="none",
                       help="adamw: a step after every iteration (default none: gradients only)")
    train.add_argument("--lr", type=float, default=1e-3, help="peak learning rate (1e-3)")
    train.add_argument("--weight-decay", type=float, default=0.01,
                       help="AdamW's decoupled weight decay (0.01)")
    train.add_argument("--clip-grad", type=float, default=1.0,
                       help="clip the global gradient norm to this (1.0; 0 = off)")
    train.add_argument("--warmup", type=int, default=0,
                       help="steps of linear learning-rate warm-up (0)")
    train.add_argument("--dataset", action="append", metavar="PATH",
                       help="train on this data (repeatable): JSON lists of token ids, or text "
                            "read as bytes with one sample per paragraph; a folder: its files. "
                            "Each iteration's schedule is solved by slimpack solve")
    train.add_argument("--samples-per-iteration", type=int, default=16,
                       help="samples of each iteration's batch with --dataset (16)")
    train.add_argument("--solve-args", default="",
                       help="options of `slimpack solve` for each iteration with --dataset, "
                            "e.g. \"--costs tiny-8x256.json --pp 2 --slice 64\"")
    train.add_argument("--max-sample-tokens", type=int, default=None,
                       help="cut longer dataset samples into pieces of this many tokens")
    train.add_argument("--schedule-dir", metavar="DIR",
                       help="keep each iteration's length file and schedule here")
    train.add_argument("--save", metavar="DIR",
                       help="write a checkpoint after the run: weights, optimizer, data position")
    train.add_argument("--resume", metavar="DIR", help="start from a checkpoint --save wrote")
    p.add_argument("--trace-dir", metavar="DIR",
                   help="write one profiler trace per rank, DIR/rank<r>.json (the last iteration)")
    p.add_argument("--trace-ranges-only", action="store_true",
                   help="write only the runtime's own ranges (F<k>, B<k>, waits, sends) to the "
                        "traces, timed without torch.profiler: smaller and faster to write")
    p.add_argument("--trace-unit-time", choices=("wall", "cpu"), default="wall",
                   help="duration of the F<k>/B<k> ranges in the traces: wall clock (default) or "
                        "the rank's thread CPU time (for fit-costs --trace on a CPU run; needs "
                        "--trace-ranges-only)")
    p.add_argument("--json", metavar="FILE", help="write the summary as JSON (- = stdout)")
    p.add_argument("--seed", type=int, default=1234,
                   help="seed of the weights, random token ids and data order (default 1234)")
    p.add_argument("--dtype", choices=("float64", "float32", "bfloat16"), default=None,
                   help="parameter and activation type (default float64 on cpu, float32 on cuda; "
                        "--check needs float64)")
    p.add_argument("--threads", type=int, default=1,
                   help="PyTorch threads per rank (default 1: ranks share the cores)")
    p.add_argument("--timeout", type=float, default=300.0,
                   help="seconds before a rank that waits (for a message, a collective, the "
                        "other ranks to arrive) or stops responding ends the run (default 300)")
    p.add_argument("--in-process", action="store_true",
                   help="run all ranks in this process without torch.distributed (debugging; "
                        "no traces or timings per rank)")
    p.add_argument("--units-only", action="store_true",
                   help="run every rank's packs in this one process on one device, each unit "
                        "timed alone (CUDA events on a GPU, the thread clock on a CPU): per-unit "
                        "times for fit-costs --trace with a single GPU")
    # --engine torch-pp: PyTorch's own pipeline runtime (torchpp_engine.py, docs/runtime.md)
    eng = p.add_argument_group("engine")
    eng.add_argument("--engine", choices=("slimpack", "torch-pp"), default="slimpack",
                     help="slimpack: this package's atom engine (default); torch-pp: "
                          "torch.distributed.pipelining's _PipelineScheduleRuntime, from the "
                          "plan's CSV (plans with one backward pack per forward pack and whole "
                          "sequences, padded to one shape)")
    eng.add_argument("--torch-pp-format", choices=("compute_only", "compute_comms"),
                     default="compute_only",
                     help="with --engine torch-pp: the CSV format torch loads, compute_only "
                          "(default; torch adds the communication) or compute_comms")
    eng.add_argument("--torch-pp-csv", metavar="FILE",
                     help="with --engine torch-pp: load this CSV (e.g. slimpack export torch-pp) "
                          "instead of the plan's own conversion; micro-batch k is forward pack k")
    p.add_argument("--version", action=_Version, nargs=0,
                   help="print the version, the package folder, PyTorch's version and the "
                        "interpreter, and exit")
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
    if (args.schedule is None) == (not args.dataset):
        raise UserError("give a schedule file or --dataset (a new schedule per iteration), "
                        "not both" if args.schedule else "no schedule: give a schedule file or "
                        "--dataset PATH --solve-args \"...\"")
    if args.dataset and not args.solve_args.strip():
        raise UserError("--dataset needs --solve-args, the options of `slimpack solve` for each "
                        "iteration (e.g. \"--costs tiny-8x256.json --pp 2\")")
    if args.check and args.dtype != "float64":
        raise UserError(f"--check needs --dtype float64 (got {args.dtype}): the tolerance "
                        f"{args.tolerance:g} is a float64 one")
    for name, low in (("iterations", 1), ("threads", 1), ("samples_per_iteration", 1),
                      ("warmup", 0)):
        if getattr(args, name) < low:
            raise UserError(f"--{name.replace('_', '-')}: must be at least {low} "
                            f"(got {getattr(args, name)})")
    if args.max_sample_tokens is not None and args.max_sample_tokens < 1:
        raise UserError(f"--max-sample-tokens: must be at least 1 (got {args.max_sample_tokens})")
    for name in ("timeout", "tolerance", "lr"):
        if not getattr(args, name) > 0:
            raise UserError(f"--{name}: must be positive (got {getattr(args, name):g})")
    for name in ("weight_decay", "clip_grad"):
        if not getattr(args, name) >= 0:
            raise UserError(f"--{name.replace('_', '-')}: must be 0 or more "
                            f"(got {getattr(args, name):g})")
    if args.trace_unit_time == "cpu" and not args.trace_ranges_only and args.engine != "torch-pp":
        raise UserError("--trace-unit-time cpu needs --trace-ranges-only (the profiler's ranges "
                        "keep their wall-clock durations); --engine torch-pp takes it alone")
    alone = "--in-process" if args.in_process else "--units-only" if args.units_only else None
    if args.in_process and args.units_only:
        raise UserError("--units-only and --in-process are exclusive (--units-only already runs "
                        "every rank in this process)")
    if args.in_process and (args.trace_dir or args.device != "cpu"):
        raise UserError("--in-process runs on the CPU without traces: drop --trace-dir and "
                        "--device cuda")
    if args.units_only and (args.trace_ranges_only or args.trace_unit_time != "wall"):
        raise UserError("--units-only writes its own unit times (CUDA events or the thread "
                        "clock): drop --trace-ranges-only and --trace-unit-time")
    if alone and (args.optimizer != "none" or args.save or args.resume or args.dataset
                  or args.launcher != "spawn"):
        raise UserError(f"{alone} runs one schedule's gradients in this process: --optimizer, "
                        "--dataset, --save, --resume and --launcher need the distributed runner")
    if args.optimizer == "none" and (args.save or args.resume):
        raise UserError("--save and --resume keep a training run: add --optimizer adamw")


def _import_torch():
    try:
        import torch
    except ImportError:
        raise UserError(f"PyTorch is not installed for {sys.executable}: slimpack-run needs "
                        f"PyTorch {MIN_TORCH} or newer; create its environment with "
                        "runtime-env.sh (docs/runtime.md, \"Requirements\")") from None
    have = tuple(int(x) for x in torch.__version__.split("+")[0].split(".")[:2])
    want = tuple(int(x) for x in MIN_TORCH.split("."))
    if have < want:
        raise UserError(f"PyTorch {torch.__version__} at {sys.executable} is too old: "
                        f"slimpack-run needs {MIN_TORCH} or newer; create its environment with "
                        "runtime-env.sh (docs/runtime.md, \"Requirements\")")
    return torch


def _config(args: argparse.Namespace):
    from .runplan import OptimConfig, RunConfig

    optim = None
    if args.optimizer == "adamw":
        optim = OptimConfig(lr=args.lr, weight_decay=args.weight_decay, clip_norm=args.clip_grad,
                            warmup=args.warmup)
    return RunConfig(device=args.device, dtype=args.dtype, seed=args.seed, threads=args.threads,
                     timeout_s=args.timeout, attention=args.attention,
                     trace_dir=os.path.abspath(args.trace_dir) if args.trace_dir else None,
                     trace_profiler=not args.trace_ranges_only,
                     cpu_durations=args.trace_unit_time == "cpu", check=args.check,
                     tolerance=args.tolerance, optim=optim,
                     save_dir=os.path.abspath(args.save) if args.save else None,
                     launcher=args.launcher)


def _main(args: argparse.Namespace) -> int:
    _check_args(args)
    torch = _import_torch()
    if args.engine == "torch-pp":  # PyTorch's own pipeline runtime: torchpp_engine.py
        from .torchpp_engine import check_torchpp_args
        check_torchpp_args(args)
    elif args.torch_pp_csv or args.torch_pp_format != "compute_only":
        raise UserError("--torch-pp-csv and --torch-pp-format need --engine torch-pp")
    from .prepare import prepare_run
    from .rank import DTYPES
    from .support import device_problem

    problem = device_problem(args.device)
    if problem:
        raise UserError(problem)
    dtype_bytes = torch.tensor([], dtype=DTYPES[args.dtype]).element_size()
    if args.trace_dir:
        try:
            os.makedirs(args.trace_dir, exist_ok=True)
        except OSError as e:
            raise UserError(f"{args.trace_dir}: cannot create the trace folder: "
                            f"{e.strerror}") from None
    torch.set_num_threads(max(args.threads, 1))
    cfg = _config(args)
    if args.engine == "torch-pp":
        from .torchpp_engine import configure
        configure(args, cfg)
    if args.launcher == "env":
        return _main_env(args, cfg, dtype_bytes)
    plan = prepare_run(args, dtype_bytes)
    if args.engine == "torch-pp":  # refuses what torch cannot run, before any rank starts
        from .torchpp_engine import check_plan
        check_plan(plan, cfg)
    if args.in_process:
        summary = _run_in_process(plan, cfg)
    elif args.units_only:
        summary = _run_units_only(plan, cfg, args)
    else:
        from .launch import launch_spawn
        from .schedule import parse_schedule_text

        world = parse_schedule_text(plan.iterations[0].text, plan.iterations[0].path).processes()
        summary = launch_spawn(cfg, plan, world)
    return _report(args, summary)


def _main_env(args: argparse.Namespace, cfg, dtype_bytes: int) -> int:
    from .envlaunch import world_from_env
    from .prepare import prepare_run
    from .rank import PeerFailed, run_rank

    w = world_from_env(os.environ)
    os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"] = w.master_addr, str(w.master_port)
    os.environ.setdefault("LOCAL_RANK", str(w.local_rank))
    try:
        summary = run_rank(cfg, w.rank, w.world, "env://",
                           prepare=lambda: prepare_run(args, dtype_bytes, w.world))
    except PeerFailed as e:
        return e.code  # rank 0 printed the reason
    except TimeoutError as e:
        raise RunError(f"rank {w.rank}: {e}") from None
    except UserError:
        raise
    except Exception as e:  # a rank's failure: its own line, with the rank
        raise RunError(f"rank {w.rank} failed: {type(e).__name__}: "
                       f"{str(e).strip().splitlines()[0] if str(e).strip() else ''}") from None
    if summary is None:
        return 0
    summary["world_source"] = w.source
    summary["phases_s"].pop("started_at", None)
    return _report(args, summary)


def _report(args: argparse.Namespace, summary: dict[str, Any]) -> int:
    _print_summary(summary, sys.stderr if args.json == "-" else sys.stdout)
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
        what = "loss" if check["loss_max_rel_error"] > check["max_rel_error"] else \
            f"{check['worst_parameter']}"
        raise RunError(f"--check failed: {what} differs from the single-process reference by "
                       f"{max(check['max_rel_error'], check['loss_max_rel_error']):.3g} "
                       f"(relative), above {args.tolerance:g}")
    return 0


def _base_summary(plan, cfg, mode: str) -> tuple[dict[str, Any], Any]:
    import torch

    from .schedule import parse_schedule_text
    from .summary import unit_count

    s = parse_schedule_text(plan.iterations[-1].text, plan.iterations[-1].path)
    return {"schedule": plan.iterations[0].path, "version": __version__,
            "torch_version": torch.__version__, "python": sys.executable, "device": cfg.device,
            "mode": mode, "launcher": None, "attention": cfg.attention,
            "world_size": s.processes(), "tp": s.setup.tp, "dtype": cfg.dtype, "optimizer": None,
            "model_source": "transformers" if plan.hf is not None else "built-in",
            "hf_model": plan.hf.path if plan.hf is not None else None,
            "units": unit_count(s), "traces": [], "unit_times": []}, s


def _run_in_process(plan, cfg) -> dict[str, Any]:
    from .local import run_local
    from .rank import DTYPES
    from .summary import check_run

    out, s = _base_summary(plan, cfg, "in-process")
    iterations = []
    results: list[dict[str, Any]] = [{"iterations": [], "grads": {}} for _ in s.ranks]
    for _ in plan.iterations:
        t0 = time.perf_counter()
        engines = run_local(s, cfg.seed, DTYPES[cfg.dtype], attention=cfg.attention, hf=plan.hf)
        wall = time.perf_counter() - t0
        iterations.append({"wall_s": wall, "loss": sum(e.loss_sum for e in engines if e.is_last)})
        for e, res in zip(engines, results):
            res["iterations"].append({"loss": e.loss_sum if e.is_last else None})
            res["grads"] = {n: p.grad.detach() for n, p in e.model.named_parameters()
                            if p.grad is not None}
    out["iterations"] = iterations
    out["check"] = check_run(cfg, plan, [s] * len(plan.iterations), results) if cfg.check else None
    return out


def _run_units_only(plan, cfg, args) -> dict[str, Any]:
    import torch

    from .rank import DTYPES
    from .summary import check_run
    from .units import run_units_only

    out, s = _base_summary(plan, cfg, "units-only")
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, str(cfg.threads))
    device = torch.device("cuda", 0) if cfg.device == "cuda" else torch.device("cpu")
    run = run_units_only(s, cfg.seed, DTYPES[cfg.dtype], device, len(plan.iterations),
                         args.trace_dir, cfg.attention, plan.hf)
    if args.trace_dir:
        from .trace import write_run_schedule
        write_run_schedule(args.trace_dir, plan.iterations[-1].text)
    results = [{"iterations": [{"loss": e.loss_sum if e.is_last else None}] * len(plan.iterations),
                "grads": {n: p.grad.detach().cpu() for n, p in e.model.named_parameters()
                          if p.grad is not None}} for e in run["engines"]]
    out.update(iterations=[{"wall_s": run["wall_s"], "loss": run["loss"]}] * len(plan.iterations),
               units=len(run["units"]), traces=run["traces"], unit_times=run["units"],
               timing="cuda events" if cfg.device == "cuda" else "thread cpu time")
    out["check"] = check_run(cfg, plan, [s] * len(plan.iterations), results) if cfg.check else None
    return out


def _print_summary(summary: dict[str, Any], out) -> None:
    from .schedule import load_schedule

    print(f"run        {summary['mode']} on {summary['device']}, {summary['world_size']} ranks, "
          f"{summary['units']} units, attention {summary['attention']}, torch "
          f"{summary['torch_version']}", file=out)
    try:
        s = load_schedule(summary["schedule"])
        st, m = s.setup, s.setup.model
        assert m is not None
        print(f"schedule   {s.path}: {st.stages} stages x {st.replicas} replicas, {st.schedule}, "
              f"model {m.name} ({m.layers} layers, hidden {m.hidden}), "
              f"{len(s.sequences)} sequences, {s.total_tokens()} tokens", file=out)
    except UserError:
        pass
    if summary.get("torch_pp"):  # --engine torch-pp: the padding torch's one shape costs
        tp = summary["torch_pp"]
        mbs = f"{tp['microbatches']} micro-batch" + ("es" if tp["microbatches"] != 1 else "")
        print(f"torch-pp   {mbs} of {tp['pack_tokens']} rows "
              f"({tp['format']}), padding {tp['pad_tokens']} of {tp['padded_tokens']} rows "
              f"({100 * tp['padding_fraction']:.1f} %)", file=out)
    for i, it in enumerate(summary["iterations"]):
        loss = f", loss {it['loss']:.12g}" if it.get("loss") is not None else ""
        extra = f", grad norm {it['grad_norm']:.4g}, lr {it['lr']:.3g}" if "grad_norm" in it else ""
        print(f"iteration  {i + 1}: {it['wall_s']:.3f} s{loss}{extra}", file=out)
    c = summary["check"]
    if c is not None:
        verdict = "ok" if c["ok"] else "FAILED"
        what = "parameter" if summary.get("optimizer") else "gradient"
        print(f"check      {verdict}: max relative {what} error {c['max_rel_error']:.3g} over "
              f"{c['parameters']} parameters (worst {c['worst_parameter']}), losses "
              f"{c['loss_max_rel_error']:.3g}, tolerance {c['tolerance']:g}", file=out)
    if summary["traces"]:
        print(f"traces     {len(summary['traces'])} files in "
              f"{os.path.dirname(summary['traces'][0])}", file=out)
    if summary.get("saved"):
        print(f"saved      {summary['saved']}", file=out)
