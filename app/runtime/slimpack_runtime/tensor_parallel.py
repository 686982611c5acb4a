"""Tensor parallelism as Megatron-LM does it (Shoeybi et al. 2019, section 3), for both models.

The t processes of one (replica, stage) hold 1/t of every attention block's heads and of every
MLP's intermediate features: the Q/K/V and gate/up projections are column-parallel (each process
computes its heads / features from the whole input), the output and down projections row-parallel
(each process multiplies its slice, then one all-reduce sums the partial outputs). So each block
costs one all-reduce forward (`g`, after the row-parallel projection) and one backward (`f`, the
gradient of the block's input): `copy_to_tensor_group` and `reduce_from_tensor_group` below, each
a profiler range of its own (`TP all-reduce fwd` / `TP all-reduce bwd`). Embedding, norms and the
LM head are replicated (no vocabulary parallelism): their inputs and gradients are identical on
the t processes, so they need no communication.

torch.distributed.tensor.parallel (DTensor) does the same with its own hooks; it is not used here
because every atom's forward reads detached K/V leaves of earlier atoms, which must stay plain
local tensors, and because these two functions are all the communication there is.

Process layout: process = (replica * stages + stage) * tp + tensor_rank, so a pipeline rank's t
processes are consecutive (docs/runtime.md, "Tensor parallelism").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


@dataclass(frozen=True)
class TensorGroup:
    """This process's place in its tensor-parallel group; size 1 = no tensor parallelism."""

    size: int = 1
    rank: int = 0
    group: Any = None  # the torch.distributed group of the t processes (None when size is 1)

    def part(self, n: int) -> tuple[int, int]:
        """Rows [begin, end) of an n-long dimension that this process holds."""
        assert n % self.size == 0, (n, self.size)
        k = n // self.size
        return self.rank * k, (self.rank + 1) * k


SINGLE = TensorGroup()


class _Copy(torch.autograd.Function):
    """Megatron's f: identity forward, all-reduce of the gradient backward."""

    @staticmethod
    def forward(ctx, x: torch.Tensor, group: Any) -> torch.Tensor:  # type: ignore[override]
        ctx.group = group
        return x.view_as(x)

    @staticmethod
    def backward(ctx, g: torch.Tensor) -> tuple[torch.Tensor, None]:  # type: ignore[override]
        g = g.contiguous().clone()
        with torch.profiler.record_function("TP all-reduce bwd"):
            dist.all_reduce(g, group=ctx.group)
        return g, None


class _Reduce(torch.autograd.Function):
    """Megatron's g: all-reduce forward, identity backward."""

    @staticmethod
    def forward(ctx, x: torch.Tensor, group: Any) -> torch.Tensor:  # type: ignore[override]
        y = x.contiguous().clone()
        with torch.profiler.record_function("TP all-reduce fwd"):
            dist.all_reduce(y, group=group)
        return y

    @staticmethod
    def backward(ctx, g: torch.Tensor) -> tuple[torch.Tensor, None]:  # type: ignore[override]
        return g, None


def copy_to_tensor_group(x: torch.Tensor, tp: TensorGroup) -> torch.Tensor:
    return x if tp.size == 1 else _Copy.apply(x, tp.group)


def reduce_from_tensor_group(x: torch.Tensor, tp: TensorGroup) -> torch.Tensor:
    return x if tp.size == 1 else _Reduce.apply(x, tp.group)


class RowParallelLinear(nn.Module):
    """y = all-reduce(x_part @ W_part^T) + b: a Linear whose input features are split over the
    group; the bias (replicated) is added once, after the sum. Parameter names are nn.Linear's
    (`weight`, `bias`), so the model's global names do not change."""

    def __init__(self, weight: torch.Tensor, bias: Optional[torch.Tensor], tp: TensorGroup):
        super().__init__()
        self.weight = nn.Parameter(weight)
        self.bias = nn.Parameter(bias) if bias is not None else None
        self.tp = tp

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = reduce_from_tensor_group(F.linear(x, self.weight), self.tp)
        return y if self.bias is None else y + self.bias


# How each sharded parameter is split: the dimension of its (out, in) weight, or of its bias.
COLUMN = 0  # output features (heads, MLP features): weight rows, bias entries
ROW = 1  # input features: weight columns (the bias is replicated)


def shard(t: torch.Tensor, dim: Optional[int], tp: TensorGroup) -> torch.Tensor:
    """This process's part of the whole tensor t (dim None: replicated, returned as is)."""
    if dim is None or tp.size == 1:
        return t
    b, e = tp.part(t.shape[dim])
    return t.narrow(dim, b, e - b).contiguous()
