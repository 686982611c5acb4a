"""All ranks of a schedule in one process, without torch.distributed.

Messages go through a dictionary and the all-reduce is a sum, so the atom engine can be tested (and
a schedule debugged) without spawning processes: the ranks take turns, each running its actions
until it needs a message that has not been sent yet, the same rule as the deadlock check.
"""

from __future__ import annotations

import contextlib
from typing import Any, Callable, ContextManager, Optional

import torch

from .engine import StageEngine
from .model import StageModel
from .schedule import Schedule


def build_engines(s: Schedule, seed: int, dtype: torch.dtype = torch.float64,
                  device: torch.device = torch.device("cpu")) -> list[StageEngine]:
    assert s.setup.model is not None
    engines = []
    for rk in s.ranks:
        model = StageModel(s.setup.model, rk.first_layer, rk.layers, rk.stage == 0,
                           rk.stage == s.setup.stages - 1, seed, dtype, device)
        engines.append(StageEngine(s, rk, model, seed, device))
    return engines


def run_local(s: Schedule, seed: int, dtype: torch.dtype = torch.float64,
              device: torch.device = torch.device("cpu"),
              timer: Optional[Callable[[Any, Any], ContextManager]] = None) -> list[StageEngine]:
    """Executes every rank's actions; returns the engines (gradients in their models).

    `timer(rank, action)`, when given, wraps every F and B action (units-only timing)."""
    engines = build_engines(s, seed, dtype, device)
    timed = timer or (lambda rank, action: contextlib.nullcontext())
    mailbox: dict[tuple[int, int, int], torch.Tensor] = {}
    inbox: list[dict[tuple[str, int], torch.Tensor]] = [{} for _ in s.ranks]
    outbox: list[dict[tuple[str, int], torch.Tensor]] = [{} for _ in s.ranks]
    pos = [0] * len(s.ranks)
    reduced: dict[tuple[int, ...], int] = {}
    progress = True
    while progress:
        progress = False
        for rk in s.ranks:
            r, eng = rk.rank, engines[rk.rank]
            while pos[r] < len(rk.actions):
                a = rk.actions[pos[r]]
                if a.op in ("RECV_F", "RECV_B"):
                    key = (a.peer, r, a.tag)
                    if key not in mailbox:
                        break
                    inbox[r][(a.op[-1], a.pack)] = mailbox.pop(key)
                elif a.op in ("SEND_F", "SEND_B"):
                    mailbox[(r, a.peer, a.tag)] = outbox[r].pop((a.op[-1], a.pack))
                elif a.op == "F":
                    with timed(rk, a):
                        y = eng.forward_pack(a.pack, inbox[r].pop(("F", a.pack), None), a.path)
                    if y is not None:
                        outbox[r][("F", a.pack)] = y
                elif a.op == "B":
                    with timed(rk, a):
                        dx = eng.backward_pack(a.pack, inbox[r].pop(("B", a.pack), None), a.path)
                    if dx is not None:
                        outbox[r][("B", a.pack)] = dx
                elif a.op == "ALLREDUCE":
                    # Run the collective when every member has reached it.
                    if not all(_next_is_allreduce(s, g, pos[g]) for g in a.group):
                        break
                    _allreduce([engines[g] for g in a.group])
                    for g in a.group:
                        if g != r:
                            pos[g] += 1
                    reduced[a.group] = reduced.get(a.group, 0) + 1
                pos[r] += 1
                progress = True
    if any(pos[rk.rank] < len(rk.actions) for rk in s.ranks):
        raise RuntimeError("local run is stuck (the schedule deadlocks)")
    for eng in engines:
        eng.finish()
    return engines


def _next_is_allreduce(s: Schedule, g: int, p: int) -> bool:
    acts = s.ranks[g].actions
    return p < len(acts) and acts[p].op == "ALLREDUCE"


def _allreduce(engines: list[StageEngine]) -> None:
    params = [dict(e.model.named_parameters()) for e in engines]
    for name in params[0]:
        total = sum(p[name].grad for p in params if p[name].grad is not None)
        for p in params:
            p[name].grad = total.clone()


def gradients(engines: list[StageEngine], replica: int = 0) -> dict[str, torch.Tensor]:
    """One replica's parameter gradients by global name."""
    out: dict[str, torch.Tensor] = {}
    for e in engines:
        if e.rank.replica == replica:
            for name, p in e.model.named_parameters():
                if p.grad is not None:
                    out[name] = p.grad.detach()
    return out
