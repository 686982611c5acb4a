"""`--save DIR` / `--resume DIR`: the weights, the optimizer's state and where the data stood.

The folder holds `checkpoint.json` (format, step, model, seed, optimizer settings, the sampler's
state) and one `stage<s>.pt` per pipeline stage, written by replica 0's rank of that stage: every
tensor is stored by its global parameter name (`layers.5.wq`), so a run with another stage split
can resume from it (every rank reads the files and takes its own names). The folder must be
reachable from every rank (a shared file system across nodes). A save replaces the files
atomically: a run killed while saving leaves the previous checkpoint.
"""

from __future__ import annotations

import glob
import json
import os
from typing import Any, Optional

import torch
import torch.distributed as dist

from .errors import UserError
from .runplan import RunConfig, RunPlan
from .schedule import Schedule
from .training import load_optimizer_state, optimizer_state

FORMAT = "slimpack-run-checkpoint"


def save_checkpoint(cfg: RunConfig, plan: RunPlan, s: Schedule, rank: int,
                    named: dict[str, torch.nn.Parameter], opt: Optional[torch.optim.Optimizer],
                    iterations: int) -> None:
    assert cfg.save_dir is not None
    rk = s.ranks[rank]
    if rank == 0:
        os.makedirs(cfg.save_dir, exist_ok=True)
    dist.barrier()
    if rk.replica == 0:
        ids = {id(p): n for n, p in named.items()}
        state = {"params": {n: p.detach().cpu().clone() for n, p in named.items()},
                 "optimizer": optimizer_state(opt, ids) if opt is not None else {}}
        path = os.path.join(cfg.save_dir, f"stage{rk.stage}.pt")
        torch.save(state, path + ".tmp")
        os.replace(path + ".tmp", path)
    dist.barrier()
    if rank == 0:
        for old in glob.glob(os.path.join(cfg.save_dir, "stage*.pt")):
            n = os.path.basename(old)[5:-3]
            if n.isdigit() and int(n) >= s.setup.stages:
                os.remove(old)  # a previous save with more stages
        m = s.setup.model
        assert m is not None
        meta = {"format": FORMAT, "version": 1, "step": plan.first_step + iterations,
                "stages": s.setup.stages, "seed": cfg.seed, "dtype": cfg.dtype,
                "model": {"name": m.name, "layers": m.layers, "hidden": m.hidden, "ffn": m.ffn,
                          "heads": m.heads, "kv_heads": m.kv_heads, "vocab": m.vocab},
                "optimizer": cfg.optim.as_json() if cfg.optim is not None else None,
                "sampler": plan.sampler_state, "dataset": plan.dataset}
        path = os.path.join(cfg.save_dir, "checkpoint.json")
        with open(path + ".tmp", "w", encoding="utf-8") as f:
            json.dump(meta, f, indent=1)
        os.replace(path + ".tmp", path)


def read_meta(folder: str) -> dict[str, Any]:
    path = os.path.join(folder, "checkpoint.json")
    try:
        with open(path, encoding="utf-8") as f:
            meta = json.load(f)
    except OSError as e:
        raise UserError(f"{path}: --resume: cannot open: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise UserError(f"{path}: --resume: JSON error at line {e.lineno}: {e.msg}") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise UserError(f"{path}: $.format: is not \"{FORMAT}\"")
    if not isinstance(meta.get("step"), int) or meta["step"] < 0:
        raise UserError(f"{path}: $.step: is not a non-negative integer")
    return meta


def check_compatible(meta: dict[str, Any], s: Schedule, seed: int, folder: str) -> None:
    m = s.setup.model
    assert m is not None
    want = {"layers": m.layers, "hidden": m.hidden, "ffn": m.ffn, "heads": m.heads,
            "kv_heads": m.kv_heads, "vocab": m.vocab}
    got = meta.get("model") or {}
    for k, v in want.items():
        if got.get(k) != v:
            raise UserError(f"{os.path.join(folder, 'checkpoint.json')}: $.model.{k}: "
                            f"{got.get(k)} differs from the schedule's {v}")


def load_full_state(folder: str) -> dict[str, dict[str, Any]]:
    """Every stage file merged: {"params": {name: tensor}, "optimizer": {name: state}}."""
    params: dict[str, Any] = {}
    optim: dict[str, Any] = {}
    files = sorted(glob.glob(os.path.join(folder, "stage*.pt")))
    if not files:
        raise UserError(f"{folder}: --resume: no stage*.pt files")
    for f in files:
        try:
            st = torch.load(f, map_location="cpu", weights_only=True)
        except Exception as e:  # a truncated or foreign file
            raise UserError(f"{f}: --resume: cannot read: {e}") from None
        params.update(st["params"])
        optim.update(st["optimizer"])
    return {"params": params, "optimizer": optim}


def load_rank_state(folder: str, named: dict[str, torch.nn.Parameter],
                    opt: Optional[torch.optim.Optimizer]) -> None:
    state = load_full_state(folder)
    with torch.no_grad():
        for n, p in named.items():
            if n not in state["params"]:
                raise UserError(f"{folder}: --resume: the checkpoint has no parameter {n}")
            p.copy_(state["params"][n].to(p.dtype))
    if opt is not None and state["optimizer"]:
        load_optimizer_state(opt, named, state["optimizer"], folder)
