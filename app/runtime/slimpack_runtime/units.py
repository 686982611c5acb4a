"""`--units-only`: every rank's packs in one process, each unit timed alone.

With one GPU (or a CPU core) the pipeline cannot run as p processes, but its units can: the ranks
take turns in this process (local.py: messages through a dictionary, the same action order), so
every F and B runs with the real shapes, sequences, atoms and recompute of the schedule, one at a
time. On CUDA each unit is timed with CUDA events around it (the GPU's time, launch gaps
included); on the CPU with the thread's clock. The times go to the summary and, with
--trace-dir, to one trace per rank whose F<k>/B<k> ranges last the measured times, laid end to
end, so `slimpack fit-costs --trace DIR --plan SCHEDULE` fits the cost model to them: a
real-PyTorch counterpart of slimpack-profile's per-layer kernels.
"""

from __future__ import annotations

import os
import time
from typing import Any

import torch

from .local import run_local
from .schedule import Schedule
from .trace import ANCHOR, write_rank_trace


class UnitTimer:
    """Times the F/B actions run_local runs: CUDA events on a GPU, the thread clock on a CPU."""

    def __init__(self, device: torch.device):
        self.cuda = device.type == "cuda"
        self.records: list[tuple[Any, Any, Any, Any]] = []  # rank, action, start, end

    def __call__(self, rank, action):
        return _Timed(self, rank, action)

    def seconds(self) -> list[tuple[Any, Any, float]]:
        """(rank, action, seconds) per unit, in the order they ran."""
        if self.cuda:
            torch.cuda.synchronize()
            return [(r, a, s.elapsed_time(e) / 1e3) for r, a, s, e in self.records]
        return [(r, a, (e - s) / 1e9) for r, a, s, e in self.records]


class _Timed:
    def __init__(self, timer: UnitTimer, rank, action):
        self.timer, self.rank, self.action = timer, rank, action

    def __enter__(self):
        if self.timer.cuda:
            self.start = torch.cuda.Event(enable_timing=True)
            self.start.record()
        else:
            self.start = time.thread_time_ns()
        return self

    def __exit__(self, *exc):
        if self.timer.cuda:
            end = torch.cuda.Event(enable_timing=True)
            end.record()
        else:
            end = time.thread_time_ns()
        self.timer.records.append((self.rank, self.action, self.start, end))
        return False


def _pack_tokens(s: Schedule, rank, action) -> int:
    rep = s.replicas[rank.replica]
    return (rep.forward_packs if action.op == "F" else rep.backward_packs)[action.pack].tokens


def run_units_only(s: Schedule, seed: int, dtype: torch.dtype, device: torch.device,
                   iterations: int, trace_dir: str | None,
                   attention: str = "sdpa", hf=None) -> dict[str, Any]:
    """Runs the schedule's units `iterations` times (the last is kept) and returns the summary."""
    engines, units, wall = [], [], 0.0
    for it in range(iterations):
        timer = UnitTimer(device)
        t0 = time.perf_counter()
        engines = run_local(s, seed, dtype, device, timer, attention, hf=hf)
        if timer.cuda:
            torch.cuda.synchronize()
        wall = time.perf_counter() - t0
        if it + 1 < iterations:
            continue
        for rank, action, seconds in timer.seconds():
            units.append({"name": f"{action.op}{action.pack + 1}", "op": action.op,
                          "pack": action.pack, "tokens": _pack_tokens(s, rank, action),
                          "rank": rank.rank, "replica": rank.replica, "stage": rank.stage,
                          "iteration": it, "seconds": seconds})
    traces = _write_traces(s, units, trace_dir, device) if trace_dir else []
    loss = sum(e.loss_sum for e in engines if e.is_last)
    return {"engines": engines, "wall_s": wall, "loss": loss, "units": units, "traces": traces}


def _write_traces(s: Schedule, units: list[dict], trace_dir: str, device: torch.device) -> list[str]:
    """One trace per rank: the anchor at 0, then its units end to end with their measured times."""
    paths = []
    for rk in s.ranks:
        events: list[dict[str, Any]] = [{"name": ANCHOR, "ph": "X", "pid": rk.rank, "tid": 1,
                                         "ts": 0.0, "dur": 1.0, "args": {}}]
        unit_args: dict[str, dict] = {}
        ts = 1.0
        for u in units:
            if u["rank"] != rk.rank:
                continue
            dur = round(u["seconds"] * 1e6, 3)
            events.append({"name": u["name"], "ph": "X", "pid": rk.rank, "tid": 1, "ts": ts,
                           "dur": dur, "args": {}})
            unit_args[u["name"]] = {"pack": u["pack"], "tokens": u["tokens"],
                                    "stage": rk.stage, "replica": rk.replica}
            ts = round(ts + dur, 3)
        path = os.path.join(trace_dir, f"rank{rk.rank}.json")
        write_rank_trace(events, path, rank=rk.rank, world_size=s.world_size(),
                         replica=rk.replica, stage=rk.stage, backend="none (units only)",
                         anchor_at_us=0.0, unit_args=unit_args,
                         extra={"mode": "units-only", "device": str(device),
                                "timing": "cuda events" if device.type == "cuda"
                                          else "thread cpu time"})
        paths.append(path)
    return paths
