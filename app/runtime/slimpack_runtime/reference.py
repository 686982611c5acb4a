"""The single-process reference: the whole model, forward and backward of whole sequences.

This is the definition of "the plan is executable": the pipeline's parameter gradients (after the
replicas' all-reduce) must equal the gradients of this plain loop over the same sequences with the
same weights and token ids, to float64 rounding.
"""

from __future__ import annotations

import torch

from .model import full_model
from .schedule import Schedule
from .tokens import token_ids


def reference_gradients(s: Schedule, seed: int, dtype: torch.dtype = torch.float64) -> tuple[dict[str, torch.Tensor], float]:
    """Gradients of every parameter by global name, and the loss."""
    assert s.setup.model is not None
    model = full_model(s.setup.model, seed, dtype)
    divisor = s.total_tokens()
    total = 0.0
    for q in s.sequences.values():
        ids = token_ids(q, s.setup.model.vocab, seed)
        h = model.embed_tokens(ids[:-1])
        for layer in model.layer_list():
            h, _, _ = layer(h, 0, None, None)
        loss = model.loss(h, ids[1:], divisor)
        loss.backward()
        total += float(loss.detach())
    grads = {name: p.grad.detach().clone() for name, p in model.named_parameters()
             if p.grad is not None}
    return grads, total


def compare_gradients(got: dict[str, torch.Tensor], want: dict[str, torch.Tensor]) -> tuple[float, str]:
    """Worst relative error over parameters (max |got - want| / max |want| per tensor) and the
    name of the worst parameter. A parameter missing on one side is an error of 1."""
    worst, worst_name = 0.0, ""
    for name, w in want.items():
        g = got.get(name)
        if g is None or g.shape != w.shape:
            return 1.0, name
        scale = float(w.abs().max())
        diff = float((g.to(w.dtype) - w).abs().max())
        err = diff / scale if scale > 0 else diff
        if err > worst or not worst_name:
            worst, worst_name = err, name
    for name in got:
        if name not in want:
            return 1.0, name
    return worst, worst_name
