"""One rank of a run: executes its action list with torch.distributed, times every unit, and
leaves its results (gradients, unit times, trace) in the run's scratch folder for the launcher.

Sends are `isend`s whose buffers are kept until the end of the iteration (a send never delays the
rank's next compute, as in the simulator's timing semantics); a receive is an `irecv` waited for at
once, timed as its own `wait RECV_F3` range so that `F3` covers compute only. The data-parallel
all-reduce sums the stage's gradients over the action's group in one flat buffer.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Optional

import torch
import torch.distributed as dist

from .engine import StageEngine
from .errors import UserError
from .model import StageModel
from .schedule import Schedule, load_schedule
from .trace import ANCHOR, RangeRecorder, load_profiler_events, write_rank_trace

DTYPES = {"float64": torch.float64, "float32": torch.float32, "bfloat16": torch.bfloat16}


@dataclass
class RunConfig:
    schedule_path: str
    device: str
    dtype: str
    seed: int
    iterations: int
    threads: int
    timeout_s: float
    scratch: str  # the run's private folder: store, results, raw traces
    trace_dir: Optional[str]
    save_grads: bool
    trace_profiler: bool = True  # False: --trace-ranges-only
    cpu_durations: bool = False  # --trace-unit-time cpu


def rank_main(r: int, cfg: RunConfig) -> None:
    """Entry point of torch.multiprocessing.spawn (r is the process index = the rank)."""
    try:
        _run_rank(r, cfg)
        # Results are on disk: skip the interpreter's teardown (torch and gloo take seconds to
        # unload, per rank, on a loaded machine).
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
    except BaseException as e:  # reported by the launcher, with the rank
        kind = "user" if isinstance(e, UserError) else "run"
        with open(os.path.join(cfg.scratch, f"rank{r}.error"), "w", encoding="utf-8") as f:
            json.dump({"kind": kind, "message": f"{type(e).__name__}: {e}" if kind == "run"
                       else str(e), "traceback": traceback.format_exc()}, f)
        sys.exit(1)


def _groups(s: Schedule) -> list[tuple[int, ...]]:
    seen: list[tuple[int, ...]] = []
    for rk in s.ranks:
        for a in rk.actions:
            if a.op == "ALLREDUCE" and tuple(sorted(a.group)) not in seen:
                seen.append(tuple(sorted(a.group)))
    return sorted(seen)


def _run_rank(r: int, cfg: RunConfig) -> None:
    phases = {"started": time.time()}
    torch.set_num_threads(cfg.threads)
    s = load_schedule(cfg.schedule_path)
    rk = s.ranks[r]
    n = s.world_size()
    backend = "nccl" if cfg.device == "cuda" else "gloo"
    if cfg.device == "cuda":
        torch.cuda.set_device(r % torch.cuda.device_count())
        device = torch.device("cuda", torch.cuda.current_device())
    else:
        device = torch.device("cpu")
    dist.init_process_group(backend, init_method=f"file://{os.path.join(cfg.scratch, 'store')}",
                            rank=r, world_size=n, timeout=timedelta(seconds=cfg.timeout_s))
    # Every rank creates every group, in the same order (a collective requirement).
    groups = {g: dist.new_group(list(g)) for g in _groups(s)}
    phases["connected"] = time.time()
    dtype = DTYPES[cfg.dtype]
    assert s.setup.model is not None
    model = StageModel(s.setup.model, rk.first_layer, rk.layers, rk.stage == 0,
                       rk.stage == s.setup.stages - 1, cfg.seed, dtype, device)
    iterations: list[dict[str, Any]] = []
    units: list[dict[str, Any]] = []
    raw_trace = os.path.join(cfg.scratch, f"rank{r}.raw.json")
    anchor_wall_ns = 0
    trace_events: list[Any] = []
    for it in range(cfg.iterations):
        for p in model.parameters():
            p.grad = None
        traced = cfg.trace_dir is not None and it == cfg.iterations - 1
        prof = None
        rec = RangeRecorder(traced and cfg.trace_profiler, f"rank {r}", threading.get_native_id())
        if traced and cfg.trace_profiler:
            prof = torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU] + (
                [torch.profiler.ProfilerActivity.CUDA] if cfg.device == "cuda" else []))
            prof.__enter__()
        dist.barrier()
        with rec.range(ANCHOR):
            anchor_wall_ns = time.time_ns()
            t0 = time.perf_counter()
        engine = StageEngine(s, rk, model, cfg.seed, device)
        it_units = _execute(s, r, engine, groups, device, dtype, t0, rec)
        engine.finish()
        if cfg.device == "cuda":
            torch.cuda.synchronize()
        wall = time.perf_counter() - t0
        if prof is not None:
            prof.__exit__(None, None, None)
            prof.export_chrome_trace(raw_trace)
            trace_events = load_profiler_events(raw_trace)
        elif traced:
            trace_events = rec.events
        dist.barrier()
        for u in it_units:
            u["iteration"] = it
        units.extend(it_units)
        iterations.append({"wall_s": wall, "loss": engine.loss_sum if engine.is_last else None})
    phases["ran"] = time.time()
    # The common clock origin: the earliest rank's anchor of the traced iteration.
    anchors = [0] * n
    dist.all_gather_object(anchors, anchor_wall_ns)
    trace_path = None
    if cfg.trace_dir is not None:
        trace_path = os.path.join(cfg.trace_dir, f"rank{r}.json")
        unit_args = {u["name"]: {"pack": u["pack"], "tokens": u["tokens"], "stage": rk.stage,
                                 "replica": rk.replica}
                     for u in units if u["iteration"] == cfg.iterations - 1}
        write_rank_trace(trace_events, trace_path, rank=r, world_size=n, replica=rk.replica,
                      stage=rk.stage, backend=backend,
                      anchor_at_us=(anchor_wall_ns - min(anchors)) / 1000.0, unit_args=unit_args,
                      extra={"schedule": os.path.basename(cfg.schedule_path),
                             "anchor_wall_ns": anchor_wall_ns,
                             "unit_durations": "cpu" if cfg.cpu_durations else "wall"},
                      unit_durations_us={u["name"]: u["cpu_s"] * 1e6 for u in units
                                         if u["iteration"] == cfg.iterations - 1}
                      if cfg.cpu_durations else None)
    phases["traced"] = time.time()
    result = {"rank": r, "replica": rk.replica, "stage": rk.stage, "iterations": iterations,
              "units": units, "trace": trace_path, "phases": phases}
    if cfg.save_grads:
        grads = {name: p.grad.detach().to("cpu", torch.float64) for name, p in
                 model.named_parameters() if p.grad is not None}
        torch.save(grads, os.path.join(cfg.scratch, f"rank{r}.grads.pt"))
    with open(os.path.join(cfg.scratch, f"rank{r}.result.json"), "w", encoding="utf-8") as f:
        json.dump(result, f)
    dist.barrier()
    dist.destroy_process_group()


def _execute(s: Schedule, r: int, engine: StageEngine, groups, device: torch.device,
             dtype: torch.dtype, t0: float, rec: RangeRecorder) -> list[dict[str, Any]]:
    """Runs rank r's actions in order; returns one timing record per F/B unit."""
    rk = s.ranks[r]
    rep = s.replicas[rk.replica]
    hidden = s.setup.model.hidden  # type: ignore[union-attr]
    cuda = device.type == "cuda"
    inbox: dict[tuple[str, int], torch.Tensor] = {}
    outbox: dict[tuple[str, int], torch.Tensor] = {}
    pending: list[tuple[Any, torch.Tensor]] = []
    units: list[dict[str, Any]] = []
    rf = rec.range
    for a in rk.actions:
        label = f"{a.op}{a.pack + 1}" if a.pack >= 0 else a.op
        if a.op in ("RECV_F", "RECV_B"):
            buf = torch.empty((a.tokens, hidden), dtype=dtype, device=device)
            with rf(f"wait {label}"):
                dist.irecv(buf, src=a.peer, tag=a.tag).wait()
            inbox[(a.op[-1], a.pack)] = buf
        elif a.op in ("SEND_F", "SEND_B"):
            t = outbox.pop((a.op[-1], a.pack))
            with rf(label):
                pending.append((dist.isend(t, dst=a.peer, tag=a.tag), t))
        elif a.op in ("F", "B"):
            name = f"{a.op}{a.pack + 1}"
            tokens = (rep.forward_packs if a.op == "F" else rep.backward_packs)[a.pack].tokens
            w0, c0 = time.perf_counter(), time.thread_time_ns()
            with rf(name):
                if a.op == "F":
                    y = engine.forward_pack(a.pack, inbox.pop(("F", a.pack), None), a.path)
                else:
                    y = engine.backward_pack(a.pack, inbox.pop(("B", a.pack), None), a.path)
                if cuda:
                    torch.cuda.synchronize()
            w1, c1 = time.perf_counter(), time.thread_time_ns()
            if y is not None:
                outbox[(a.op, a.pack)] = y
            units.append({"name": name, "op": a.op, "pack": a.pack, "tokens": tokens,
                          "rank": r, "replica": rk.replica, "stage": rk.stage,
                          "start_s": w0 - t0, "wall_s": w1 - w0, "cpu_s": (c1 - c0) / 1e9})
        elif a.op == "ALLREDUCE":
            with rf("ALLREDUCE"):
                _allreduce(engine.model, groups[tuple(sorted(a.group))])
    with rf("wait sends"):
        for work, _ in pending:
            work.wait()
    return units


def _allreduce(model: StageModel, group) -> None:
    params = list(model.parameters())
    for p in params:
        if p.grad is None:
            p.grad = torch.zeros_like(p)
    flat = torch.cat([p.grad.reshape(-1) for p in params])
    dist.all_reduce(flat, op=dist.ReduceOp.SUM, group=group)
    off = 0
    for p in params:
        k = p.numel()
        p.grad.copy_(flat[off:off + k].view_as(p.grad))
        off += k
