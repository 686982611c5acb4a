"""The coordinator's part of a run, before any rank computes: read the schedule (or solve one per
iteration from a dataset through the sampler), refuse what the runtime cannot run, validate every
schedule by the dry run, and read the checkpoint to resume from. The launcher does this before it
starts the ranks; under torchrun or Slurm, rank 0 does it and broadcasts the result, so every rank
executes exactly the bytes that were validated here.
"""

from __future__ import annotations

import argparse
import os
import shlex
import tempfile
from typing import Optional

from .checkpoint import check_compatible, read_meta
from .data import check_vocab, iteration_tokens, load_dataset
from .errors import UserError
from .hf_config import check_against_schedule, check_weights, load_hf_model_spec
from .runplan import IterationInput, RunPlan
from .schedule import Schedule, load_schedule
from .support import check_supported, world_problem
from .validate import validate_schedule


def prepare_run(args: argparse.Namespace, dtype_bytes: int, world: Optional[int] = None) -> RunPlan:
    """`world`: the size of a world that already exists (torchrun, Slurm), checked against the
    schedule's ranks."""
    meta = read_meta(args.resume) if args.resume else None
    first_step = meta["step"] if meta else 0
    if args.dataset:
        plan = _from_dataset(args, meta)
    else:
        s = load_schedule(args.schedule)
        plan = RunPlan([IterationInput(s.text, args.schedule)] * args.iterations)
    plan.first_step = first_step
    plan.resume = args.resume
    if getattr(args, "hf_model", None):
        plan.hf = load_hf_model_spec(args.hf_model)
        check_weights(plan.hf)
    checked: dict[str, Schedule] = {}
    first: Optional[Schedule] = None
    for it in plan.iterations:
        if it.text in checked:
            continue
        from .schedule import parse_schedule_text

        s = parse_schedule_text(it.text, it.path)
        # The file's own consistency first, so that a broken file is named where the C++
        # reader names it; then what this runtime can run.
        validate_schedule(s)
        _check_modes(s, args)
        check_supported(s, args.device, dtype_bytes, builtin=plan.hf is None)
        if plan.hf is not None:
            check_against_schedule(plan.hf, s)
        if world is None and not getattr(args, "units_only", False):
            problem = world_problem(s, args.device)
            if problem:
                raise UserError(problem)
        if first is None:
            first = s
        else:
            _same_layout(first, s)
        checked[it.text] = s
    assert first is not None
    if world is not None and world != first.processes():
        raise UserError(f"{first.path}: the schedule has {first.processes()} processes "
                        f"(replicas x stages x tp = {first.setup.replicas} x "
                        f"{first.setup.stages} x {first.setup.tp}), the launcher started "
                        f"{world} (WORLD_SIZE)")
    if meta is not None:
        check_compatible(meta, first, args.seed, args.resume)
    return plan


def _check_modes(s: Schedule, args: argparse.Namespace) -> None:
    """What the chosen mode cannot do with this schedule (before the machine-dependent checks)."""
    if s.setup.tp > 1 and (getattr(args, "in_process", False) or getattr(args, "units_only", False)):
        raise s.error("$.setup.tp", f"tp = {s.setup.tp} needs one process per tensor rank: "
                      "--in-process and --units-only run tp = 1 plans only")
    if s.setup.tp > 1 and (args.save or args.resume):
        raise s.error("$.setup.tp", f"tp = {s.setup.tp}: --save and --resume keep unsharded "
                      "tensors and do not support tensor parallelism yet")


def _same_layout(a: Schedule, b: Schedule) -> None:
    for field in ("stages", "replicas", "stage_layers", "recompute_layers", "model"):
        if getattr(a.setup, field) != getattr(b.setup, field):
            raise UserError(f"{b.path}: $.setup.{field}: differs from the first iteration's "
                            f"schedule ({a.path}); a run keeps one model and one layout")


def _from_dataset(args: argparse.Namespace, meta: Optional[dict]) -> RunPlan:
    from .sampler import SamplerError, SlimPackSampler

    samples, kind = load_dataset(args.dataset, args.max_sample_tokens)
    workdir = args.schedule_dir or tempfile.mkdtemp(prefix="slimpack-run-schedules-")
    try:
        solve_args = shlex.split(args.solve_args)
    except ValueError as e:
        raise UserError(f"--solve-args: {e}") from None
    try:
        sampler = SlimPackSampler([len(x) - 1 for x in samples], solve_args=solve_args,
                                  samples_per_iteration=args.samples_per_iteration,
                                  workdir=workdir, shuffle=True, seed=args.seed)
        if meta is not None and meta.get("sampler"):
            sampler.load_state_dict(meta["sampler"])
        its = []
        for _ in range(args.iterations):
            it = sampler.next_iteration()
            s = it.schedule
            assert s.setup.model is not None
            check_vocab(samples, s.setup.model.vocab, f"{', '.join(args.dataset)} ({kind})")
            its.append(IterationInput(s.text, it.schedule_path,
                                      iteration_tokens(s, it.samples, samples), it.samples))
    except (SamplerError, ValueError) as e:
        raise UserError(f"--dataset: {e}") from None
    return RunPlan(its, sampler_state=sampler.state_dict(),
                   dataset=f"{', '.join(os.path.abspath(p) for p in args.dataset)} ({kind}, "
                           f"{len(samples)} samples)")
