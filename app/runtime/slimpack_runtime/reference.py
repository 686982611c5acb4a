"""The single-process reference: the whole model, forward and backward of whole sequences, and
(for a training run) the same optimizer on the same batches.

This is the definition of "the plan is executable": the pipeline's losses, parameter gradients
(after the replicas' all-reduce) and, when it trains, its parameters after every step must equal
those of this plain loop over the same sequences with the same weights and token ids, to float64
rounding. Its attention is the reference path (materialised scores), whichever path the run used.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

import torch

from .data import TokenSource
from .hf_config import HFModelSpec
from .models import build_reference_model
from .schedule import Schedule
from .runplan import OptimConfig
from .training import load_optimizer_state, make_optimizer


@dataclass
class ReferenceRun:
    losses: list[float]  # per iteration
    grads: dict[str, torch.Tensor]  # of the last iteration, before clipping
    params: dict[str, torch.Tensor]  # after the last step


def _forward_backward(model, s: Schedule, tokens: TokenSource) -> float:
    divisor = s.total_tokens()
    total = 0.0
    for q in s.sequences.values():
        loss = model.sequence_loss(tokens.ids(q), divisor)
        loss.backward()
        total += float(loss.detach())
    return total


def reference_training(s0: Schedule, seed: int, iterations: list[tuple[Schedule, TokenSource]],
                       optim: Optional[OptimConfig], first_step: int = 0,
                       state: Optional[dict] = None,
                       dtype: torch.dtype = torch.float64,
                       hf: Optional[HFModelSpec] = None) -> ReferenceRun:
    """Runs the iterations; with `optim`, one optimizer step after each (steps first_step...).
    `state` (a checkpoint: params and optimizer state by name) is where a resumed run starts.
    The model is s0's (the built-in one), or transformers' when `hf` is given."""
    model = build_reference_model(hf, s0, seed, dtype)
    named = dict(model.named_parameters())
    opt = make_optimizer(list(named.values()), optim) if optim is not None else None
    if state is not None:
        with torch.no_grad():
            for name, p in named.items():
                p.copy_(state["params"][name].to(dtype))
        if opt is not None:
            load_optimizer_state(opt, named, state["optimizer"], "reference")
    losses: list[float] = []
    grads: dict[str, torch.Tensor] = {}
    for i, (s, tokens) in enumerate(iterations):
        model.zero_grad(set_to_none=True)
        losses.append(_forward_backward(model, s, tokens))
        grads = {n: p.grad.detach().clone() for n, p in named.items() if p.grad is not None}
        if opt is not None:
            assert optim is not None
            if optim.clip_norm > 0:
                torch.nn.utils.clip_grad_norm_(list(named.values()), optim.clip_norm,
                                               foreach=False)
            for group in opt.param_groups:
                group["lr"] = optim.lr_at(first_step + i)
            opt.step()
    params = {n: p.detach().clone() for n, p in named.items()}
    return ReferenceRun(losses, grads, params)


def compare_tensors(got: dict[str, torch.Tensor], want: dict[str, torch.Tensor]) -> tuple[float, str]:
    """Worst relative error over tensors (max |got - want| / max |want| per tensor) and the
    name of the worst one. A tensor missing on one side is an error of 1."""
    worst, worst_name = 0.0, ""
    for name, w in want.items():
        g = got.get(name)
        if g is None or g.shape != w.shape:
            return 1.0, name
        scale = float(w.abs().max())
        diff = float((g.to(w.dtype) - w).abs().max())
        err = diff / scale if scale > 0 else diff
        if not math.isfinite(err):  # a NaN would compare False below and pass unnoticed
            return math.inf, name
        if err > worst or not worst_name:
            worst, worst_name = err, name
    for name in got:
        if name not in want:
            return 1.0, name
    return worst, worst_name


compare_gradients = compare_tensors  # the name the engine tests use


def reference_gradients(s: Schedule, seed: int,
                        dtype: torch.dtype = torch.float64) -> tuple[dict[str, torch.Tensor], float]:
    """One iteration of `s` on seeded random tokens: every parameter's gradient and the loss."""
    from .data import RandomTokens

    assert s.setup.model is not None
    run = reference_training(s, seed, [(s, RandomTokens(s.setup.model.vocab, seed))],
                             None, dtype=dtype)
    return run.grads, run.losses[0]
