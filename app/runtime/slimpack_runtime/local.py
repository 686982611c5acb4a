"""All ranks of a schedule in one process, without torch.distributed.

Messages go through a dictionary and the all-reduce is a sum, so the atom engine can be tested (and
a schedule debugged) without spawning processes: the ranks take turns in play.py's order, the very
function the deadlock check plays.
"""

from __future__ import annotations

import contextlib
from typing import Any, Callable, ContextManager, Optional

import torch

from .data import RandomTokens, TokenSource
from .engine import StageEngine
from .models import build_stage_model
from .play import play_ranks
from .schedule import Action, ActionKind, Rank, Schedule


def build_engines(s: Schedule, tokens: TokenSource, dtype: torch.dtype = torch.float64,
                  device: torch.device = torch.device("cpu"), seed: int = 1234,
                  attention: str = "sdpa", hf=None) -> list[StageEngine]:
    """One engine per rank; `hf`: transformers' model (hf_config.HFModelSpec), else built-in."""
    assert s.setup.model is not None
    engines = []
    for rk in s.ranks:
        model = build_stage_model(hf, s, rk, seed, dtype, device, attention)
        engines.append(StageEngine(s, rk, model, tokens, device))
    return engines


def run_local(s: Schedule, seed: int, dtype: torch.dtype = torch.float64,
              device: torch.device = torch.device("cpu"),
              timer: Optional[Callable[[Any, Any], ContextManager]] = None,
              attention: str = "sdpa", tokens: Optional[TokenSource] = None,
              hf=None) -> list[StageEngine]:
    """Executes every rank's actions (play.py's order); returns the engines (gradients in their
    models). `timer(rank, action)`, when given, wraps every F and B action (units-only timing)."""
    assert s.setup.model is not None
    engines = build_engines(s, tokens or RandomTokens(s.setup.model.vocab, seed), dtype, device,
                            seed, attention, hf)
    timed = timer or (lambda rank, action: contextlib.nullcontext())
    mailbox: dict[tuple[int, int, int], torch.Tensor] = {}
    inbox: list[dict[tuple[str, int], torch.Tensor]] = [{} for _ in s.ranks]
    outbox: list[dict[tuple[str, int], torch.Tensor]] = [{} for _ in s.ranks]

    def step(rk: Rank, a: Action) -> None:
        r, eng = rk.rank, engines[rk.rank]
        if a.op in (ActionKind.RECV_F, ActionKind.RECV_B):
            inbox[r][(a.op[-1], a.pack)] = mailbox.pop((a.peer, r, a.tag))
        elif a.op in (ActionKind.SEND_F, ActionKind.SEND_B):
            mailbox[(r, a.peer, a.tag)] = outbox[r].pop((a.op[-1], a.pack))
        elif a.op == ActionKind.F:
            with timed(rk, a):
                y = eng.forward_pack(a.pack, inbox[r].pop(("F", a.pack), None), a.path)
            if y is not None:
                outbox[r][("F", a.pack)] = y
        elif a.op == ActionKind.B:
            with timed(rk, a):
                dx = eng.backward_pack(a.pack, inbox[r].pop(("B", a.pack), None), a.path)
            if dx is not None:
                outbox[r][("B", a.pack)] = dx

    stuck = play_ranks(s, step, lambda a: _allreduce([engines[g] for g in a.group]))
    if stuck:
        raise RuntimeError("local run is stuck (the schedule deadlocks)")
    for eng in engines:
        eng.finish()
    for rep in range(s.setup.replicas):  # tied embeddings: the first and last stage's copies
        ends = [e for e in engines if e.rank.replica == rep and e.model.tied_names()]
        if ends:
            _sum_named(ends, ends[0].model.tied_names())
    return engines


def _allreduce(engines: list[StageEngine]) -> None:
    _sum_named(engines, [n for n, _ in engines[0].model.named_parameters()])


def _sum_named(engines: list[StageEngine], names: list[str]) -> None:
    params = [dict(e.model.named_parameters()) for e in engines]
    for name in names:
        grads: list[torch.Tensor] = [g for g in (p[name].grad for p in params) if g is not None]
        total = grads[0].clone()
        for g in grads[1:]:
            total += g
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
