"""What a run reports: each rank's own record (`rank_summary`), and on rank 0 the run's summary
(`world_summary`): iterations, unit times, traces and, with --check, the comparison with the
single-process reference on the same batches (and the same optimizer when the run trains)."""

from __future__ import annotations

import os
import sys
import time
from typing import Any, Optional

import torch

from . import __version__
from .data import token_source
from .runplan import RunConfig, RunPlan
from .schedule import ActionKind, Rank, Schedule


def rank_summary(rank: int, rk: Rank, iterations: list[dict[str, Any]],
                 units: list[dict[str, Any]], trace: Optional[str], phases: dict[str, float],
                 grads: Optional[dict[str, torch.Tensor]],
                 params: Optional[dict[str, torch.Tensor]]) -> dict[str, Any]:
    return {"rank": rank, "replica": rk.replica, "stage": rk.stage, "iterations": iterations,
            "units": units, "trace": trace, "phases": phases, "grads": grads, "params": params}


def unit_count(s: Schedule) -> int:
    return sum(1 for rk in s.ranks for a in rk.actions if a.op in (ActionKind.F, ActionKind.B))


def world_summary(cfg: RunConfig, plan: RunPlan, schedules: list[Schedule],
                  results: list[dict[str, Any]],
                  resumed_from: Optional[dict] = None) -> dict[str, Any]:
    """`resumed_from`: the checkpoint's state as it was when the run started (--resume)."""
    s = schedules[-1]
    iterations = []
    for i in range(len(schedules)):
        recs = [res["iterations"][i] for res in results]
        losses = [r["loss"] for r in recs if r["loss"] is not None]
        it: dict[str, Any] = {"wall_s": max(r["wall_s"] for r in recs),
                              "loss": sum(losses) if losses else None,
                              "schedule": plan.iterations[i].path,
                              "tokens": schedules[i].total_tokens(),
                              "sequences": len(schedules[i].sequences)}
        if "grad_norm" in recs[0]:
            it.update(grad_norm=recs[0]["grad_norm"], lr=recs[0]["lr"], step=recs[0]["step"])
        iterations.append(it)
    ph = [res["phases"] for res in results]
    return {
        "schedule": plan.iterations[0].path, "version": __version__,
        "torch_version": torch.__version__, "python": sys.executable,
        "device": cfg.device, "mode": cfg.launcher, "launcher": cfg.launcher,
        "attention": cfg.attention, "world_size": s.world_size(), "dtype": cfg.dtype,
        "threads_per_rank": cfg.threads, "cpu_count": os.cpu_count(),
        "optimizer": cfg.optim.as_json() if cfg.optim is not None else None,
        "dataset": plan.dataset, "first_step": plan.first_step,
        "check": check_run(cfg, plan, schedules, results, resumed_from) if cfg.check else None,
        "iterations": iterations,
        "phases_s": {"started_at": max(p["started"] for p in ph),
                     "connect_s": max(p["connected"] - p["started"] for p in ph),
                     "iterations_s": max(p["ran"] - p["connected"] for p in ph),
                     "traces_s": max(p["traced"] - p["ran"] for p in ph)},
        "units": unit_count(s),
        "traces": [res["trace"] for res in results] if cfg.trace_dir else [],
        "unit_times": [u for res in results for u in res["units"]],
        "saved": cfg.save_dir,
    }


def check_run(cfg: RunConfig, plan: RunPlan, schedules: list[Schedule],
              results: list[dict[str, Any]],
              resumed_from: Optional[dict] = None) -> dict[str, Any]:
    """Losses of every iteration, the last iteration's gradients and, when the run trains, the
    final parameters, against reference_training on the same batches."""
    from .checkpoint import load_full_state
    from .reference import compare_tensors, reference_training

    t0 = time.perf_counter()
    s0 = schedules[0]
    assert s0.setup.model is not None
    state = resumed_from
    if state is None and plan.resume:
        state = load_full_state(plan.resume)
    ref = reference_training(
        s0.setup.model, cfg.seed,
        [(s, token_source(it.tokens, s0.setup.model.vocab, cfg.seed))
         for s, it in zip(schedules, plan.iterations)], cfg.optim, plan.first_step, state)
    out: dict[str, Any] = {
        "reference": ("single-process training of the whole model (reference attention) with "
                      "the same AdamW on the same batches") if cfg.optim is not None else
                     "single-process forward and backward of the whole sequences (reference "
                     "attention)",
        "tolerance": cfg.tolerance, "reference_loss": ref.losses[-1],
        "reference_losses": ref.losses}
    # Losses: the run's per-iteration sum over last-stage ranks.
    loss_err = 0.0
    for i, want in enumerate(ref.losses):
        got = sum(res["iterations"][i]["loss"] for res in results
                  if res["iterations"][i]["loss"] is not None)
        loss_err = max(loss_err, abs(got - want) / max(abs(want), 1e-300))
    out["loss_max_rel_error"] = loss_err
    grad_err, grad_name, grad_rank, compared = _compare_ranks(
        s0, results, "grads", ref.grads, compare_tensors)
    out.update(grad_max_rel_error=grad_err, parameters=compared)
    worst, worst_name, worst_rank = grad_err, grad_name, grad_rank
    if cfg.optim is not None:
        perr, pname, prank, _ = _compare_ranks(s0, results, "params", ref.params, compare_tensors)
        out["param_max_rel_error"] = perr
        worst, worst_name, worst_rank = perr, pname, prank  # after training: the parameters
        if grad_err > perr:
            worst, worst_name, worst_rank = grad_err, grad_name, grad_rank
    out.update(max_rel_error=worst, worst_parameter=worst_name, worst_rank=worst_rank,
               reference_s=time.perf_counter() - t0)
    out["ok"] = max(worst, loss_err) <= cfg.tolerance
    return out


def _compare_ranks(s: Schedule, results: list[dict[str, Any]], key: str,
                   ref: dict[str, torch.Tensor], compare) -> tuple[float, str, int, int]:
    worst, worst_name, worst_rank, compared = 0.0, "", -1, 0
    for r, res in enumerate(results):
        got = res[key] or {}
        missing = sorted(expected_names(s, r, ref) - set(got))
        if missing:
            return 1.0, missing[0], r, compared
        err, name = compare(got, {n: ref[n] for n in got})
        compared += len(got)
        if err > worst or not worst_name:
            worst, worst_name, worst_rank = err, name, r
    return worst, worst_name, worst_rank, compared


def expected_names(s: Schedule, r: int, ref: dict) -> set[str]:
    rk = s.ranks[r]
    names = {n for n in ref if n.startswith("layers.")
             and rk.first_layer <= int(n.split(".")[1]) < rk.first_layer + rk.layers}
    if rk.stage == 0:
        names.add("embed")
    if rk.stage == s.setup.stages - 1:
        names |= {"final_norm", "head"}
    return names
