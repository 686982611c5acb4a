"""What a run is, as plain data that crosses process boundaries without importing torch: the
options every rank runs with (`RunConfig`), the optimizer's (`OptimConfig`), and the prepared,
validated iterations (`RunPlan`). The coordinator (the launcher, or rank 0 under torchrun and
Slurm) prepares the plan once; every rank executes exactly those schedule bytes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional


@dataclass(frozen=True)
class OptimConfig:
    """AdamW with a linear warm-up and clipping by the global gradient norm (training.py)."""

    lr: float = 1e-3
    weight_decay: float = 0.01
    betas: tuple[float, float] = (0.9, 0.95)
    eps: float = 1e-8
    clip_norm: float = 1.0  # 0: no clipping
    warmup: int = 0  # steps of linear warm-up to lr

    def lr_at(self, step: int) -> float:
        """Learning rate of optimizer step `step` (0-based, counted over resumed runs)."""
        if self.warmup > 0 and step < self.warmup:
            return self.lr * (step + 1) / self.warmup
        return self.lr

    def as_json(self) -> dict[str, Any]:
        return {"name": "adamw", "lr": self.lr, "weight_decay": self.weight_decay,
                "betas": list(self.betas), "eps": self.eps, "clip_norm": self.clip_norm,
                "warmup": self.warmup}


@dataclass
class IterationInput:
    text: str  # the schedule's bytes, as validated
    path: str  # names it in messages and the summary
    tokens: Optional[dict[str, list[int]]] = None  # dataset ids by sequence; None: seeded random
    samples: Optional[list[int]] = None  # dataset index of each sequence's sample


@dataclass
class RunPlan:
    iterations: list[IterationInput]
    first_step: int = 0  # optimizer steps taken before this run (--resume)
    resume: Optional[str] = None  # checkpoint folder
    sampler_state: Optional[dict[str, Any]] = None  # the sampler after this run, for --save
    dataset: Optional[str] = None  # what the tokens came from, for the summary
    hf: Optional[Any] = None  # hf_config.HFModelSpec with --hf-model; None: the built-in model


@dataclass
class RunConfig:
    device: str = "cpu"
    dtype: str = "float64"
    seed: int = 1234
    threads: int = 1
    timeout_s: float = 300.0
    attention: str = "sdpa"
    trace_dir: Optional[str] = None
    trace_profiler: bool = True  # False: --trace-ranges-only
    cpu_durations: bool = False  # --trace-unit-time cpu
    check: bool = False
    tolerance: float = 1e-9
    optim: Optional[OptimConfig] = None
    save_dir: Optional[str] = None
    launcher: str = "spawn"
    scratch: Optional[str] = None  # spawn: the launcher's private folder (errors, heartbeats)
    extra: dict[str, Any] = field(default_factory=dict)
