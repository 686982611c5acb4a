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
from .models import reference_name
from .runplan import RunConfig, RunPlan
from .schedule import ActionKind, Rank, Schedule


def rank_summary(rank: int, rk: Rank, iterations: list[dict[str, Any]],
                 units: list[dict[str, Any]], trace: Optional[str], phases: dict[str, float],
                 grads: Optional[dict[str, torch.Tensor]],
                 params: Optional[dict[str, torch.Tensor]], tensor_rank: int = 0,
                 shards: Optional[dict[str, Optional[int]]] = None) -> dict[str, Any]:
    """`shards`: under tensor parallelism, the split dimension of each parameter (None:
    replicated), so that rank 0 can put the t parts of a tensor back together."""
    return {"rank": rank, "replica": rk.replica, "stage": rk.stage, "tensor_rank": tensor_rank,
            "iterations": iterations, "units": units, "trace": trace, "phases": phases,
            "grads": grads, "params": params, "shards": shards}


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
        "attention": cfg.attention, "world_size": s.processes(), "tp": s.setup.tp,
        "model_source": "transformers" if plan.hf is not None else "built-in",
        "hf_model": plan.hf.path if plan.hf is not None else None, "dtype": cfg.dtype,
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
        s0, cfg.seed,
        [(s, token_source(it.tokens, s0.setup.model.vocab, cfg.seed))
         for s, it in zip(schedules, plan.iterations)], cfg.optim, plan.first_step, state,
        hf=plan.hf)
    model = reference_name(plan.hf)
    results = merge_tensor_ranks(results, s0.setup.tp)
    out: dict[str, Any] = {
        "reference": (f"single-process training of the whole model, {model}, with the same "
                      "AdamW on the same batches") if cfg.optim is not None else
                     f"single-process forward and backward of the whole sequences: {model}",
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


FIRST_STAGE = ("embed", "model.embed_tokens.weight")
LAST_STAGE = ("final_norm", "head", "model.norm.weight", "lm_head.weight")


def _layer_of(name: str) -> Optional[int]:
    """The decoder layer a parameter belongs to (`layers.5.wq`, `model.layers.5.mlp...`)."""
    parts = name.split(".")
    for i, p in enumerate(parts[:-1]):
        if p == "layers" and parts[i + 1].isdigit():
            return int(parts[i + 1])
    return None


def expected_names(s: Schedule, r: int, ref: dict) -> set[str]:
    """The reference's parameters that pipeline rank r must report."""
    rk = s.ranks[r]
    names = set()
    for n in ref:
        layer = _layer_of(n)
        if layer is not None:
            if rk.first_layer <= layer < rk.first_layer + rk.layers:
                names.add(n)
        elif (rk.stage == 0 and n in FIRST_STAGE) or \
                (rk.stage == s.setup.stages - 1 and n in LAST_STAGE):
            names.add(n)
    return names


def merge_tensor_ranks(results: list[dict[str, Any]], tp: int) -> list[dict[str, Any]]:
    """One result per pipeline rank: the t processes' parts of every sharded tensor
    concatenated along its split dimension. A replicated tensor must be equal on all t (else the
    merged tensor gets a NaN, which fails the check and names the parameter)."""
    if tp == 1:
        return results
    out = []
    for first in range(0, len(results), tp):
        parts = results[first:first + tp]
        merged = dict(parts[0])
        shards = parts[0].get("shards") or {}
        for key in ("grads", "params"):
            if parts[0].get(key) is None:
                continue
            whole: dict[str, Optional[torch.Tensor]] = {}
            for name, t0 in parts[0][key].items():
                dim = shards.get(name)
                ts = [p[key].get(name) for p in parts]
                if any(t is None for t in ts):
                    whole[name] = None
                elif dim is None:
                    same = all(torch.equal(t, t0) for t in ts[1:])
                    whole[name] = t0 if same else torch.full_like(t0, float("nan"))
                else:
                    whole[name] = torch.cat(ts, dim=dim)
            merged[key] = {n: t for n, t in whole.items() if t is not None}
        out.append(merged)
    return out
