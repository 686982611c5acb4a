"""The optimizer step, the same in every rank and in the single-process reference: AdamW with a
linear learning-rate warm-up and gradient clipping by the global norm.

A pipeline rank holds only its stage's parameters, so the global norm is assembled from every
rank's sum of squared per-tensor norms (all-reduced over the replica's stages; the replicas hold
equal gradients after their all-reduce). torch.nn.utils.clip_grad_norm_ computes the same norm (of
the per-tensor norms) on the whole model, which is what the reference uses.
"""

from __future__ import annotations

import math
from typing import Callable, Iterable, Optional

import torch

from .runplan import OptimConfig


def make_optimizer(params: list[torch.nn.Parameter], cfg: OptimConfig) -> torch.optim.Optimizer:
    # foreach=False: the per-tensor loop, whatever the device, so that ranks and the reference
    # round identically.
    return torch.optim.AdamW(params, lr=cfg.lr, betas=cfg.betas, eps=cfg.eps,
                             weight_decay=cfg.weight_decay, foreach=False)


def clip_coefficient(total_norm: float, max_norm: float) -> float:
    """clip_grad_norm_'s factor: gradients are scaled by it when it is below 1."""
    return max_norm / (total_norm + 1e-6)


def local_square_norm(params: Iterable[torch.nn.Parameter]) -> torch.Tensor:
    """Sum over this rank's gradients of their squared L2 norms (float64)."""
    total = torch.zeros((), dtype=torch.float64)
    for p in params:
        if p.grad is not None:
            total += torch.linalg.vector_norm(p.grad.detach(), 2).to("cpu", torch.float64) ** 2
    return total


def optimizer_step(opt: torch.optim.Optimizer, params: list[torch.nn.Parameter],
                   cfg: OptimConfig, step: int,
                   global_square_norm: Callable[[torch.Tensor], torch.Tensor],
                   norm_params: Optional[list[torch.nn.Parameter]] = None) -> float:
    """Clips by the global norm (assembled by `global_square_norm` from the local one over
    `norm_params`, default all: the gradients this process counts), sets the step's learning
    rate and steps. Returns the global gradient norm before clipping."""
    counted = params if norm_params is None else norm_params
    norm = math.sqrt(float(global_square_norm(local_square_norm(counted))))
    if cfg.clip_norm > 0:
        coef = clip_coefficient(norm, cfg.clip_norm)
        if coef < 1:
            for p in params:
                if p.grad is not None:
                    p.grad.mul_(coef)
    for group in opt.param_groups:
        group["lr"] = cfg.lr_at(step)
    opt.step()
    return norm


def sum_tied_gradients(named: dict[str, torch.nn.Parameter], names: list[str], group) -> None:
    """Tied embeddings over two stages: both copies' gradients become their sum (the gradient
    of the one tensor the whole model has), so both copies take the same step."""
    import torch.distributed as dist

    for n in names:
        p = named[n]
        if p.grad is None:
            p.grad = torch.zeros_like(p)
        dist.all_reduce(p.grad, op=dist.ReduceOp.SUM, group=group)


def optimizer_state(opt: torch.optim.Optimizer, names: dict[int, str]) -> dict[str, dict]:
    """The optimizer's state by global parameter name (id(param) -> name), for a checkpoint that
    a run with another stage layout can load."""
    out = {}
    for p, st in opt.state.items():
        out[names[id(p)]] = {k: (v.detach().cpu().clone() if torch.is_tensor(v) else v)
                             for k, v in st.items()}
    return out


def load_optimizer_state(opt: torch.optim.Optimizer, named: dict[str, torch.nn.Parameter],
                         state: dict[str, dict], where: str) -> None:
    from .errors import UserError

    for name, p in named.items():
        st: Optional[dict] = state.get(name)
        if st is None:
            raise UserError(f"{where}: the checkpoint has no optimizer state for {name}")
        opt.state[p] = {k: (v.to(p.device) if torch.is_tensor(v) and k != "step" else v)
                        for k, v in st.items()}
