"""One rank of a run, whichever launcher started it: joins the world, executes its action list for
every iteration of the plan, steps the optimizer, and hands its results to rank 0, which checks
them against the single-process reference and assembles the summary.

Sends are `isend`s whose buffers are kept until the end of the iteration (a send never delays the
rank's next compute, as in the simulator's timing semantics); a receive is an `irecv` waited for at
once, timed as its own `wait RECV_F3` range so that `F3` covers compute only. The data-parallel
all-reduce sums the stage's gradients over the action's group in one flat buffer.
"""

from __future__ import annotations

import os
import threading
import time
from datetime import timedelta
from typing import Any, Callable, Optional

import torch
import torch.distributed as dist

from .checkpoint import load_full_state, load_rank_state, save_checkpoint
from .data import token_source
from .engine import StageEngine
from .errors import UserError
from .models import build_stage_model
from .runplan import RunConfig, RunPlan
from .schedule import ActionKind, Schedule, parse_schedule_text
from .tensor_parallel import SINGLE, TensorGroup
from .summary import rank_summary, world_summary
from .trace import (ANCHOR, RangeRecorder, load_profiler_events, quiet_stderr, write_rank_trace,
                    write_run_schedule)
from .training import make_optimizer, optimizer_step, sum_tied_gradients

DTYPES = {"float64": torch.float64, "float32": torch.float32, "bfloat16": torch.bfloat16}


class PeerFailed(Exception):
    """Rank 0 could not prepare the run and said why; this rank exits quietly with its code."""

    def __init__(self, code: int):
        super().__init__(f"rank 0 failed to prepare the run (exit {code})")
        self.code = code


def _device(cfg: RunConfig, rank: int) -> torch.device:
    if cfg.device != "cuda":
        return torch.device("cpu")
    local = int(os.environ.get("LOCAL_RANK", rank % max(torch.cuda.device_count(), 1)))
    torch.cuda.set_device(local)
    return torch.device("cuda", local)


def join_world(cfg: RunConfig, rank: int, world: int, init_method: str) -> torch.device:
    device = _device(cfg, rank)
    backend = "nccl" if cfg.device == "cuda" else "gloo"
    try:
        dist.init_process_group(backend, init_method=init_method, rank=rank, world_size=world,
                                timeout=timedelta(seconds=cfg.timeout_s))
    except (RuntimeError, TimeoutError) as e:  # DistStoreError is a RuntimeError
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise TimeoutError(f"the {world} ranks did not all arrive within --timeout "
                           f"{cfg.timeout_s:g} s ({first})") from None
    return device


def share_plan(rank: int, plan: Optional[RunPlan], prepare: Optional[Callable[[], RunPlan]]) -> RunPlan:
    """Rank 0's plan for every rank: prepared here by rank 0 when no launcher did (torchrun,
    Slurm), then broadcast, so all ranks execute the bytes rank 0 read and validated."""
    if plan is not None:
        return plan
    box: list[Any] = [None]
    if rank == 0:
        assert prepare is not None
        try:
            box[0] = prepare()
        except UserError as e:
            box[0] = ("error", 2, str(e))
            dist.broadcast_object_list(box, src=0)
            raise
    dist.broadcast_object_list(box, src=0)
    if isinstance(box[0], tuple):
        raise PeerFailed(box[0][1])
    return box[0]


def _groups(schedules: list[Schedule]) -> list[tuple[int, ...]]:
    seen: set[tuple[int, ...]] = set()
    for s in schedules:
        for rk in s.ranks:
            for a in rk.actions:
                if a.op == ActionKind.ALLREDUCE:
                    seen.add(tuple(sorted(a.group)))
    return sorted(seen)


def run_rank(cfg: RunConfig, rank: int, world: int, init_method: str,
             plan: Optional[RunPlan] = None,
             prepare: Optional[Callable[[], RunPlan]] = None,
             on_joined: Optional[Callable[[], None]] = None) -> Optional[dict[str, Any]]:
    """Runs rank `rank`; returns the run's summary on rank 0, None elsewhere. `on_joined` is
    called once the world is complete (the spawn launcher's heartbeat then says "running")."""
    if cfg.extra.get("engine") == "torch-pp":  # PyTorch's own pipeline runtime instead
        from .torchpp_engine import run_torchpp_rank
        return run_torchpp_rank(cfg, rank, world, init_method, plan, prepare, on_joined)
    phases = {"started": time.time()}
    torch.set_num_threads(cfg.threads)
    device = join_world(cfg, rank, world, init_method)
    if on_joined is not None:
        on_joined()
    plan = share_plan(rank, plan, prepare)
    schedules = [parse_schedule_text(it.text, it.path) for it in plan.iterations]
    s0 = schedules[0]
    if s0.processes() != world:
        raise UserError(f"{s0.path}: the schedule has {s0.processes()} processes (replicas x "
                        f"stages x tp), the world has {world}")
    # Process layout (tensor_parallel.py): process = pipeline rank * tp + tensor rank.
    t = s0.setup.tp
    prank, trank = divmod(rank, t)
    # Every rank creates every group, in the same order (a collective requirement): the
    # all-reduce groups (one per tensor rank), one group per replica for the global gradient
    # norm, the tensor-parallel groups, the tied-embedding groups.
    groups = {(g, j): dist.new_group([r * t + j for r in g])
              for g in _groups(schedules) for j in range(t)}
    p = s0.setup.stages
    replica_groups = [dist.new_group(list(range(r * p * t, (r + 1) * p * t)))
                      for r in range(s0.setup.replicas)]
    tensor_groups = [dist.new_group(list(range(q * t, (q + 1) * t))) if t > 1 else None
                     for q in range(s0.world_size())]
    tp = TensorGroup(t, trank, tensor_groups[prank]) if t > 1 else SINGLE
    rk0 = s0.ranks[prank]
    dtype = DTYPES[cfg.dtype]
    assert s0.setup.model is not None
    model = build_stage_model(plan.hf, s0, rk0, cfg.seed, dtype, device, cfg.attention, tp)
    tied = model.tied_names()
    tied_groups = {(r, j): dist.new_group([(r * p) * t + j, (r * p + p - 1) * t + j])
                   for r in range(s0.setup.replicas) for j in range(t)} \
        if _any_tied(plan, p) else {}
    phases["connected"] = time.time()
    named = dict(model.named_parameters())
    params = list(named.values())
    # The global norm counts every gradient once: a replicated tensor on tensor rank 0 only,
    # tied embeddings on the first stage only.
    shards = model.shard_dims()
    norm_params = [q for n, q in named.items()
                   if (n not in tied or rk0.stage == 0)
                   and (trank == 0 or shards.get(n) is not None)]
    opt = make_optimizer(params, cfg.optim) if cfg.optim is not None else None
    resumed_from = None
    if plan.resume:
        load_rank_state(plan.resume, named, opt)
        if rank == 0 and cfg.check:  # the reference starts there too, even if --save replaces it
            resumed_from = load_full_state(plan.resume)

    def global_square_norm(local: torch.Tensor) -> torch.Tensor:
        if p * t == 1:
            return local
        total = local.to(device)
        dist.all_reduce(total, op=dist.ReduceOp.SUM, group=replica_groups[rk0.replica])  # type: ignore[arg-type]
        return total.cpu()

    iterations: list[dict[str, Any]] = []
    units: list[dict[str, Any]] = []
    trace_events: list[Any] = []
    anchor_wall_ns = 0
    last_grads: dict[str, torch.Tensor] = {}
    last = len(schedules) - 1
    raw_trace = os.path.join(cfg.scratch or cfg.trace_dir or ".", f"rank{rank}.raw.json")
    for it, (inp, s) in enumerate(zip(plan.iterations, schedules)):
        rk = s.ranks[prank]
        for prm in params:
            prm.grad = None
        traced = cfg.trace_dir is not None and it == last
        rec = RangeRecorder(traced and cfg.trace_profiler, f"rank {rank}",
                            threading.get_native_id())
        prof = None
        if traced and cfg.trace_profiler:
            prof = torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU] + (
                [torch.profiler.ProfilerActivity.CUDA] if cfg.device == "cuda" else []))
            with quiet_stderr():
                prof.__enter__()
        dist.barrier()
        with rec.range(ANCHOR):
            anchor_wall_ns = time.time_ns()
            t0 = time.perf_counter()
        engine = StageEngine(s, rk, model,
                             token_source(inp.tokens, s0.setup.model.vocab, cfg.seed), device)
        it_units = _execute(s, rank, engine, groups, device, dtype, t0, rec)
        engine.finish()
        if tied:
            with rec.range("ALLREDUCE tied"):
                sum_tied_gradients(named, tied, tied_groups[(rk0.replica, trank)])
        if cfg.device == "cuda":
            torch.cuda.synchronize()
        wall = time.perf_counter() - t0
        if prof is not None:
            with quiet_stderr():
                prof.__exit__(None, None, None)
                prof.export_chrome_trace(raw_trace)
            trace_events = load_profiler_events(raw_trace)
        elif traced:
            trace_events = rec.events
        if it == last and cfg.check:
            last_grads = {n: q.grad.detach().to("cpu", torch.float64).clone()
                          for n, q in named.items() if q.grad is not None}
        record: dict[str, Any] = {"wall_s": wall,
                                  "loss": engine.loss_sum if engine.is_last else None}
        if opt is not None:
            assert cfg.optim is not None
            step = plan.first_step + it
            record["grad_norm"] = optimizer_step(opt, params, cfg.optim, step, global_square_norm,
                                             norm_params)
            record["lr"] = cfg.optim.lr_at(step)
            record["step"] = step + 1
        for u in it_units:
            u["iteration"] = it
        units.extend(it_units)
        iterations.append(record)
    phases["ran"] = time.time()
    anchors = [0] * world
    dist.all_gather_object(anchors, anchor_wall_ns)
    trace_path = None
    if cfg.trace_dir is not None:
        trace_path = _write_trace(cfg, s0, schedules[last], rank, world, units, trace_events,
                                  anchor_wall_ns, min(anchors), last, plan.iterations[last].path)
        if rank == 0:
            write_run_schedule(cfg.trace_dir, plan.iterations[last].text)
    phases["traced"] = time.time()
    if cfg.save_dir is not None:
        save_checkpoint(cfg, plan, s0, rank, named, opt, len(schedules))
    mine = rank_summary(rank, rk0, iterations, units, trace_path, phases,
                        last_grads if cfg.check else None,
                        {n: q.detach().to("cpu", torch.float64).clone() for n, q in named.items()}
                        if cfg.check and opt is not None else None, trank,
                        shards if t > 1 else None)
    gathered: Optional[list[Any]] = [None] * world if rank == 0 else None
    dist.gather_object(mine, gathered, dst=0)
    dist.barrier()
    dist.destroy_process_group()
    if rank != 0:
        return None
    assert gathered is not None
    # Out of the world first: the other ranks need not wait (and time out) while rank 0 runs
    # the reference.
    return world_summary(cfg, plan, schedules, gathered, resumed_from)


def _any_tied(plan: RunPlan, stages: int) -> bool:
    """Whether a stage other than the first holds a copy of the embeddings (the same answer on
    every rank, so that all create the same groups)."""
    return plan.hf is not None and plan.hf.tied and stages > 1


def _write_trace(cfg: RunConfig, s0: Schedule, s: Schedule, rank: int, world: int,
                 units: list[dict[str, Any]], events: list[Any], anchor_wall_ns: int,
                 origin_ns: int, last: int, schedule_path: str) -> str:
    assert cfg.trace_dir is not None
    prank, trank = divmod(rank, s.setup.tp)
    rk = s.ranks[prank]
    # One file per pipeline rank in DIR (what fit-costs and --check-trace map, rank = replica x
    # stages + stage); under tensor parallelism the other tensor ranks' files in DIR/tp<j>/.
    folder = cfg.trace_dir if trank == 0 else os.path.join(cfg.trace_dir, f"tp{trank}")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"rank{prank}.json")
    mine = [u for u in units if u["iteration"] == last]
    write_rank_trace(events, path, rank=prank, world_size=s.world_size(), replica=rk.replica,
                     stage=rk.stage, backend="nccl" if cfg.device == "cuda" else "gloo",
                     anchor_at_us=(anchor_wall_ns - origin_ns) / 1000.0,
                     unit_args={u["name"]: {"pack": u["pack"], "tokens": u["tokens"],
                                            "stage": rk.stage, "replica": rk.replica}
                                for u in mine},
                     extra={"schedule": os.path.basename(schedule_path),
                            "tensor_rank": trank, "tp": s.setup.tp, "process": rank,
                            "anchor_wall_ns": anchor_wall_ns, "attention": cfg.attention,
                            "unit_durations": "cpu" if cfg.cpu_durations else "wall"},
                     unit_durations_us={u["name"]: u["cpu_s"] * 1e6 for u in mine}
                     if cfg.cpu_durations else None)
    return path


def _execute(s: Schedule, r: int, engine: StageEngine, groups, device: torch.device,
             dtype: torch.dtype, t0: float, rec: RangeRecorder) -> list[dict[str, Any]]:
    """Runs process r's actions in order (its pipeline rank's, with peers at the same tensor
    rank); returns one timing record per F/B unit."""
    t = s.setup.tp
    j = r % t
    rk = s.ranks[r // t]
    rep = s.replicas[rk.replica]
    hidden = s.setup.model.hidden  # type: ignore[union-attr]
    cuda = device.type == "cuda"
    inbox: dict[tuple[str, int], torch.Tensor] = {}
    outbox: dict[tuple[str, int], torch.Tensor] = {}
    pending: list[tuple[Any, torch.Tensor]] = []
    units: list[dict[str, Any]] = []
    rf = rec.range
    for a in rk.actions:
        label = f"{a.op}{a.pack + 1}" if a.pack >= 0 else str(a.op)
        if a.op in (ActionKind.RECV_F, ActionKind.RECV_B):
            buf = torch.empty((a.tokens, hidden), dtype=dtype, device=device)
            with rf(f"wait {label}"):
                work = dist.irecv(buf, src=a.peer * t + j, tag=a.tag)
                assert work is not None
                work.wait()
            inbox[(a.op[-1], a.pack)] = buf
        elif a.op in (ActionKind.SEND_F, ActionKind.SEND_B):
            msg = outbox.pop((a.op[-1], a.pack))
            with rf(label):
                pending.append((dist.isend(msg, dst=a.peer * t + j, tag=a.tag), msg))
        elif a.op in (ActionKind.F, ActionKind.B):
            name = f"{a.op}{a.pack + 1}"
            tokens = (rep.forward_packs if a.op == "F" else rep.backward_packs)[a.pack].tokens
            w0, c0 = time.perf_counter(), time.thread_time_ns()
            with rf(name):
                if a.op == ActionKind.F:
                    y = engine.forward_pack(a.pack, inbox.pop(("F", a.pack), None), a.path)
                else:
                    y = engine.backward_pack(a.pack, inbox.pop(("B", a.pack), None), a.path)
                if cuda:
                    torch.cuda.synchronize()
            w1, c1 = time.perf_counter(), time.thread_time_ns()
            if y is not None:
                outbox[(str(a.op), a.pack)] = y
            units.append({"name": name, "op": str(a.op), "pack": a.pack, "tokens": tokens,
                          "rank": r, "replica": rk.replica, "stage": rk.stage,
                          "start_s": w0 - t0, "wall_s": w1 - w0, "cpu_s": (c1 - c0) / 1e9})
        elif a.op == ActionKind.ALLREDUCE:
            with rf("ALLREDUCE"):
                _allreduce(engine.model, groups[(tuple(sorted(a.group)), j)])
    with rf("wait sends"):
        for work, _ in pending:
            work.wait()
    return units


def _allreduce(model, group) -> None:
    params = list(model.parameters())
    for p in params:
        if p.grad is None:
            p.grad = torch.zeros_like(p)
    flat = torch.cat([p.grad.reshape(-1) for p in params])  # type: ignore[union-attr]
    dist.all_reduce(flat, op=dist.ReduceOp.SUM, group=group)
    off = 0
    for p in params:
        k = p.numel()
        p.grad.copy_(flat[off:off + k].view_as(p))  # type: ignore[union-attr]
        off += k
