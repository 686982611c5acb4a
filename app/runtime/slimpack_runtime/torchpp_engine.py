"""`slimpack-run SCHEDULE --engine torch-pp`: the plan run by PyTorch's own pipeline runtime,
`torch.distributed.pipelining`, instead of this package's atom engine.

Every rank builds the runtime's model for its stage (the built-in `model.StageModel` or, with
--hf-model, transformers'; global parameter names, the same weights), wraps it in `PackStage`,
whose forward takes one micro-batch (a pack padded to the plan's largest pack: token ids on the
first stage, hidden rows elsewhere) and returns its hidden rows (on the last stage, torch's loss
function applies the model's own loss to the real rows), and hands it to a `PipelineStage`. A
`_PipelineScheduleRuntime` loads the plan's CSV (torchpp_csv.py) with its own `_load_csv` and runs
one `step()` per iteration over gloo (NCCL with --device cuda); each replica is its own pipeline
and the replicas' gradients are then all-reduced per stage, as our engine does.
With --trace-dir the step runs under torch.profiler, so the trace holds torch's own `PP:<action>`
ranges (`PP:1F3`, `PP:0SEND_F2`, ...); --check compares every gradient and the loss with the
single-process reference, exactly as for our own engine.

Padding: a pack holds several whole sequences; inside `PackStage` each sequence's rows run through
the layers on their own (causal attention within the sequence, nothing across sequences), and so
do the padding rows, as one more "sequence" left out of the loss (target -100). Their output
gradients are exactly zero, so they add exact zeros to the parameter gradients: padding costs time,
never accuracy (tested).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import shutil
import tempfile
import time
from typing import Any, Callable, Optional

import torch
import torch.distributed as dist
from torch import nn

from .data import TokenSource, token_source
from .errors import UserError
from .runplan import RunConfig, RunPlan
from .schedule import Schedule, parse_schedule_text
from .torchpp_csv import FORMATS, TorchPPPlan, rows_to_csv, torchpp_plan
from .trace import ANCHOR, quiet_stderr, write_run_schedule

ENGINE = "torch-pp"
IGNORE = -100  # cross_entropy's ignore_index: the padding rows' targets
CSV_NAME = "torch-pp.csv"  # the CSV the run executed, beside the rank traces


# ----- what torch offers ------------------------------------------------------------------------

def torch_problem() -> Optional[str]:
    """Why this PyTorch cannot run --engine torch-pp, or None."""
    try:
        from torch.distributed.pipelining import PipelineStage  # noqa: F401
        from torch.distributed.pipelining import schedules
    except ImportError as e:
        return f"--engine torch-pp: this PyTorch has no torch.distributed.pipelining ({e})"
    rt = getattr(schedules, "_PipelineScheduleRuntime", None)
    if rt is None or not hasattr(rt, "_load_csv"):
        return (f"--engine torch-pp: PyTorch {torch.__version__} has no "
                "_PipelineScheduleRuntime._load_csv (PyTorch 2.6 or newer has)")
    return None


def wait_sends() -> bool:
    """Whether this torch's compute_comms format needs WAIT_SEND_F/WAIT_SEND_B (2.11+)."""
    from torch.distributed.pipelining import schedules

    return hasattr(schedules._ComputationType, "WAIT_SEND_F")


def torch_dry_run(text: str, fmt: str, stages: int, microbatches: int, where: str) -> None:
    """The checks `_load_csv` makes, without a process group: each cell parsed by torch's
    `_Action.from_str`, the compute actions by `_validate_schedule`, and the schedule with its
    communication (torch's lowering for compute_only) played by `_simulate_comms_compute`, which
    refuses one that would hang. Raises UserError naming `where` and torch's reason."""
    import csv
    import io

    from torch.distributed.pipelining import schedules as S

    actions: dict[int, list] = {}
    syntax = f"not a CSV of this PyTorch's actions ({torch.__version__})"
    try:
        for rank, row in enumerate(csv.reader(io.StringIO(text))):
            actions[rank] = [S._Action.from_str(c) for c in row]
            for i, (c, a) in enumerate(zip(row, actions[rank])):
                # from_str matches a prefix: `0BW0` (another release's letters) reads as `0B`
                if a is not None and str(a) != c.strip():
                    raise ValueError(f"row {rank + 1} cell {i + 1}: '{c.strip()}' reads as "
                                     f"'{a}' in this PyTorch's syntax")
    except (RuntimeError, ValueError) as e:
        raise UserError(f"{where}: {syntax}: {str(e).splitlines()[0]}") from None
    try:
        if len(actions) != stages:
            raise AssertionError(f"the file has {len(actions)} rows, the plan {stages} stages "
                                 "(one row per pipeline rank)")
        if fmt == "compute_only":
            for rank, acts in actions.items():
                for i, a in enumerate(acts):
                    if a is not None and not a.is_compute_op:
                        raise AssertionError(f"rank {rank} action {i} is {a}: a compute_only file "
                                             "holds compute actions only")
            S._validate_schedule(actions, stages, stages, microbatches)
            comms = S._add_send_recv({r: [a for a in acts if a is not None]
                                      for r, acts in actions.items()}, lambda s: s, stages)
            if hasattr(S, "_add_wait_send"):
                comms = S._add_wait_send(comms)
        else:
            if any(a is None for acts in actions.values() for a in acts):
                raise AssertionError("a compute_comms file has no empty cells")
            S._validate_schedule(actions, stages, stages, microbatches)
            comms = actions
        if hasattr(S, "_validate_send_waits"):
            S._validate_send_waits(comms)
        S._simulate_comms_compute({r: list(a) for r, a in comms.items()}, lambda s: s, stages)
    except (AssertionError, ValueError, RuntimeError) as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise UserError(f"{where}: torch's validation refuses it: {first}") from None


# ----- the coordinator's part: options, conversion, refusals -------------------------------------

def check_torchpp_args(args: argparse.Namespace) -> None:
    """The options --engine torch-pp does not take (exit 2)."""
    if args.torch_pp_format not in FORMATS:
        raise UserError(f"--torch-pp-format: one of {', '.join(FORMATS)}")
    bad = [name for name, on in (
        ("--in-process", args.in_process), ("--units-only", args.units_only),
        ("--dataset", bool(args.dataset)), ("--optimizer adamw", args.optimizer != "none"),
        ("--save", bool(args.save)), ("--resume", bool(args.resume)),
        ("--trace-ranges-only", args.trace_ranges_only)) if on]
    if bad:
        raise UserError(f"--engine torch-pp runs one schedule's gradients with PyTorch's runtime "
                        f"and its profiler: drop {', '.join(bad)}")
    problem = torch_problem()
    if problem:
        raise UserError(problem)


def configure(args: argparse.Namespace, cfg: RunConfig) -> None:
    """Puts the engine's settings into cfg.extra (they travel to every rank)."""
    cfg.extra.update(engine=ENGINE, torchpp_format=args.torch_pp_format, torchpp_csv=None,
                     torchpp_csv_path=None)
    if args.torch_pp_csv:
        try:
            with open(args.torch_pp_csv, encoding="utf-8") as f:
                cfg.extra["torchpp_csv"] = f.read()
        except (OSError, UnicodeDecodeError) as e:
            raise UserError(f"{args.torch_pp_csv}: cannot read: "
                            f"{getattr(e, 'strerror', None) or e}") from None
        cfg.extra["torchpp_csv_path"] = os.path.abspath(args.torch_pp_csv)


def check_plan(plan: RunPlan, cfg: RunConfig) -> TorchPPPlan:
    """Converts every iteration's schedule (refusing what torch cannot run) and checks the CSV
    the run will load with torch's own validation; returns the first iteration's conversion."""
    out = None
    seen: set[str] = set()
    for it in plan.iterations:
        if it.text in seen:
            continue
        seen.add(it.text)
        s = parse_schedule_text(it.text, it.path)
        tp = torchpp_plan(s)
        text, where = run_csv(tp, cfg)
        torch_dry_run(text, cfg.extra["torchpp_format"], tp.stages, tp.microbatches, where)
        out = out or tp
    assert out is not None
    return out


def run_csv(tp: TorchPPPlan, cfg: RunConfig) -> tuple[str, str]:
    """The CSV text this run loads and the name to give it in messages: the file of
    --torch-pp-csv, else the plan's conversion in --torch-pp-format."""
    given = cfg.extra.get("torchpp_csv")
    if given is not None:
        return given, cfg.extra["torchpp_csv_path"]
    fmt = cfg.extra["torchpp_format"]
    return rows_to_csv(tp.csv_rows(fmt, wait_sends())), f"the plan's {fmt} CSV"


# ----- the stage module ---------------------------------------------------------------------------

class PackStage(nn.Module):
    """One stage of the model for torch's runtime. `forward(x)` runs micro-batch
    `self.microbatch` (set by `_IndexedStage` before every forward): x is (pack_tokens,) token ids
    on the first stage, (pack_tokens, hidden) rows elsewhere; each span of rows (a sequence, or
    the padding) runs through the layers alone, from position 0. Returns the rows; on the last
    stage torch's loss function (`pack_loss`) applies the model's final norm, LM head and loss.

    `model`: the runtime's stage model, built-in (model.StageModel) or transformers'
    (hf_model.HFStageModel): anything with `embed_tokens`, `layer_list` and `loss`."""

    def __init__(self, model: Any, layouts: list[list[tuple[str, int]]], pack_tokens: int,
                 is_first: bool, is_last: bool):
        super().__init__()
        self.model = model  # a submodule when it is one (StageModel), else a plain attribute
        self.is_first, self.is_last = is_first, is_last
        self.pack_tokens = pack_tokens
        self.microbatch = 0
        self.spans: list[list[tuple[int, int]]] = []
        for mb in layouts:
            spans, row = [], 0
            for _, n in mb:
                spans.append((row, n))
                row += n
            if row < pack_tokens:
                spans.append((row, pack_tokens - row))  # the padding, as its own block
            self.spans.append(spans)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.model.embed_tokens(x) if self.is_first else x
        layers = self.model.layer_list()
        outs = []
        for start, n in self.spans[self.microbatch]:
            hs = h[start:start + n]
            for layer in layers:
                hs, _, _ = layer(hs, 0, None, None)
            outs.append(hs)
        return torch.cat(outs, dim=0) if len(outs) > 1 else outs[0]


def pack_loss(model: Any, divisor: int) -> Callable[[torch.Tensor, torch.Tensor], torch.Tensor]:
    """torch's loss_fn on the last stage: the model's own loss (final norm, LM head, next-token
    cross entropy summed over the rows, divided by the iteration's token count, as the reference
    computes it) over the pack's real rows; the padding rows (targets IGNORE) are left out."""
    def loss_fn(rows: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        real = targets != IGNORE
        return model.loss(rows[real], targets[real], divisor)
    return loss_fn


def pack_inputs(tp: TorchPPPlan, s: Schedule, tokens: TokenSource, replica: int,
                device: torch.device) -> tuple[list[torch.Tensor], list[torch.Tensor]]:
    """Per micro-batch of the replica: the padded input ids and targets (IGNORE on padding)."""
    ids_by_seq = {q.id: tokens.ids(q) for q in s.sequences.values() if q.replica == replica}
    ins, tgts = [], []
    for mb in tp.layouts[replica]:
        x = torch.zeros(tp.pack_tokens, dtype=torch.int64)
        t = torch.full((tp.pack_tokens,), IGNORE, dtype=torch.int64)
        row = 0
        for seq, n in mb:
            ids = ids_by_seq[seq]
            x[row:row + n] = ids[:-1]
            t[row:row + n] = ids[1:]
            row += n
        ins.append(x.to(device))
        tgts.append(t.to(device))
    return ins, tgts


class UnitClock:
    """This thread's CPU time per compute action of torch's runtime, keyed ("F" or "B",
    micro-batch): what `--trace-unit-time cpu` puts in the `PP:` ranges' durations. A forward's
    time includes the last stage's loss (torch computes it right after the forward, inside the
    same `PP:` range); a backward's, the weight gradients of a split backward (`W`)."""

    def __init__(self) -> None:
        self.cpu_ns: dict[tuple[str, int], int] = {}

    def add(self, op: str, mb: int, ns: int) -> None:
        self.cpu_ns[(op, mb)] = self.cpu_ns.get((op, mb), 0) + ns


@functools.lru_cache(maxsize=None)
def _indexed_stage_class():
    from torch.distributed.pipelining import PipelineStage

    class _IndexedStage(PipelineStage):
        """Tells the stage module which micro-batch it is about to run, and times its compute on
        the thread's CPU clock (`clock`, set after construction)."""

        clock: Optional[UnitClock] = None

        def _timed(self, op: str, mb: int, run: Callable[..., Any], *args: Any,
                   **kwargs: Any) -> Any:
            c0 = time.thread_time_ns()
            out = run(mb, *args, **kwargs)
            if self.clock is not None:
                self.clock.add(op, mb, time.thread_time_ns() - c0)
            return out

        def forward_one_chunk(self, fwd_chunk_id, *args, **kwargs):  # type: ignore[override]
            self.submod.microbatch = fwd_chunk_id
            return self._timed("F", fwd_chunk_id, super().forward_one_chunk, *args, **kwargs)

        def backward_one_chunk(self, bwd_chunk_id, *args, **kwargs):  # type: ignore[override]
            return self._timed("B", bwd_chunk_id, super().backward_one_chunk, *args, **kwargs)

        def backward_weight_one_chunk(self, bwd_chunk_id, *args, **kwargs):  # type: ignore[override]
            return self._timed("B", bwd_chunk_id, super().backward_weight_one_chunk, *args,
                               **kwargs)

    return _IndexedStage


@functools.lru_cache(maxsize=None)
def _timed_runtime_class():
    from torch.distributed.pipelining import schedules as S

    class _TimedRuntime(S._PipelineScheduleRuntime):
        """torch's runtime, with the last stage's loss added to its forward's CPU time."""

        clock: Optional[UnitClock] = None

        def _maybe_compute_loss(self, stage, output, target_mbs, mb_index,  # type: ignore[override]
                                loss_kwargs=None):
            c0 = time.thread_time_ns()
            super()._maybe_compute_loss(stage, output, target_mbs, mb_index, loss_kwargs)
            if self.clock is not None and stage.is_last:
                self.clock.add("F", mb_index, time.thread_time_ns() - c0)

    return _TimedRuntime


# ----- one rank -----------------------------------------------------------------------------------

def run_torchpp_rank(cfg: RunConfig, rank: int, world: int, init_method: str,
                     plan: Optional[RunPlan] = None,
                     prepare: Optional[Callable[[], RunPlan]] = None,
                     on_joined: Optional[Callable[[], None]] = None) -> Optional[dict[str, Any]]:
    """rank.run_rank's counterpart for --engine torch-pp; returns the summary on rank 0."""
    from .models import build_stage_model
    from .rank import DTYPES, _allreduce, _any_tied, join_world, share_plan
    from .summary import rank_summary, world_summary
    from .training import sum_tied_gradients

    phases = {"started": time.time()}
    torch.set_num_threads(cfg.threads)
    device = join_world(cfg, rank, world, init_method)
    if on_joined is not None:
        on_joined()
    checked = None
    if prepare is not None:  # --launcher env: rank 0 prepares, and refuses what torch cannot run
        bare = prepare

        def checked() -> RunPlan:
            prepared = bare()
            check_plan(prepared, cfg)
            return prepared
    plan = share_plan(rank, plan, checked)
    schedules = [parse_schedule_text(it.text, it.path) for it in plan.iterations]
    s0 = schedules[0]
    if s0.world_size() != world:
        raise UserError(f"{s0.path}: the schedule has {s0.world_size()} ranks (replicas x "
                        f"stages), the world has {world}")
    p, d = s0.setup.stages, s0.setup.replicas
    replica, stage = divmod(rank, p)
    # Every rank creates every group, in the same order: one pipeline per replica, then one
    # data-parallel group per stage.
    pp_groups = [dist.new_group(list(range(r * p, (r + 1) * p))) for r in range(d)] \
        if d > 1 else [None]
    dp_groups = [dist.new_group([r * p + st for r in range(d)]) for st in range(p)] \
        if d > 1 else []
    # transformers' tied embeddings: the first and the last stage sum their copies' gradients
    tied_groups = [dist.new_group([r * p, r * p + p - 1]) for r in range(d)] \
        if _any_tied(plan, p) else []
    phases["connected"] = time.time()
    dtype = DTYPES[cfg.dtype]
    rk0 = s0.ranks[rank]
    assert s0.setup.model is not None
    dims = s0.setup.model
    model = build_stage_model(plan.hf, s0, rk0, cfg.seed, dtype, device, cfg.attention)
    named = dict(model.named_parameters())
    tied = model.tied_names()
    fmt = cfg.extra["torchpp_format"]
    own_scratch = None if cfg.scratch else tempfile.mkdtemp(prefix="slimpack-torchpp-")
    scratch = cfg.scratch or own_scratch
    assert scratch is not None
    iterations: list[dict[str, Any]] = []
    units: list[dict[str, Any]] = []
    last_grads: dict[str, torch.Tensor] = {}
    last = len(schedules) - 1
    trace_path = None
    tp_last: Optional[TorchPPPlan] = None
    csv_text = ""
    trace_s = 0.0
    for it, (inp, s) in enumerate(zip(plan.iterations, schedules)):
        tp = torchpp_plan(s)
        tp_last = tp
        csv_text, _ = run_csv(tp, cfg)
        csv_path = os.path.join(scratch, f"rank{rank}.it{it}.csv")
        with open(csv_path, "w", encoding="utf-8") as f:
            f.write(csv_text)
        mod = PackStage(model, tp.layouts[replica], tp.pack_tokens, stage == 0, stage == p - 1)
        h, T = dims.hidden, tp.pack_tokens
        # Static shapes (no metadata-inference pass): requires_grad marks what has a gradient
        # (torch derives the gradient buffers from these).
        example_in = torch.empty(T, dtype=torch.int64, device=device) if stage == 0 else \
            torch.empty(T, h, dtype=dtype, device=device, requires_grad=True)
        example_out = torch.empty(T, h, dtype=dtype, device=device, requires_grad=True)
        pstage = _indexed_stage_class()(mod, stage, p, device, input_args=example_in,
                                         output_args=example_out, group=pp_groups[replica])
        runtime = _timed_runtime_class()([pstage], n_microbatches=tp.microbatches,
                                         loss_fn=pack_loss(model, s.total_tokens()),
                                         scale_grads=False)
        clock = UnitClock()
        pstage.clock = runtime.clock = clock
        runtime._load_csv(csv_path, format=fmt)
        ins, tgts = pack_inputs(tp, s, token_source(inp.tokens, dims.vocab, cfg.seed), replica,
                                device)
        for prm in named.values():
            prm.grad = None
        traced = cfg.trace_dir is not None and it == last
        prof = None
        if traced:
            prof = torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU] + (
                [torch.profiler.ProfilerActivity.CUDA] if cfg.device == "cuda" else []))
            with quiet_stderr():
                prof.__enter__()
        dist.barrier()
        with torch.profiler.record_function(ANCHOR):
            anchor_wall_ns = time.time_ns()
            t0 = time.perf_counter()
            c0 = time.thread_time()
        losses: list[torch.Tensor] = []
        runtime.step(arg_mbs=[(x,) for x in ins] if stage == 0 else None,
                     target_mbs=tgts if stage == p - 1 else None,
                     losses=losses if stage == p - 1 else None, return_outputs=False)
        if tied:
            with torch.profiler.record_function("ALLREDUCE tied"):
                sum_tied_gradients(named, tied, tied_groups[replica])
        if d > 1:
            with torch.profiler.record_function("ALLREDUCE"):
                _allreduce(model, dp_groups[stage])
        if cfg.device == "cuda":
            torch.cuda.synchronize()
        wall = time.perf_counter() - t0
        cpu = time.thread_time() - c0  # this thread's CPU time (gloo waits block, not spin)
        if prof is not None:
            tr0 = time.time()
            raw = os.path.join(scratch, f"rank{rank}.raw.json")
            with quiet_stderr():
                prof.__exit__(None, None, None)
                prof.export_chrome_trace(raw)
            anchors = [0] * world
            dist.all_gather_object(anchors, anchor_wall_ns)
            assert cfg.trace_dir is not None
            trace_path = os.path.join(cfg.trace_dir, f"rank{rank}.json")
            units = write_torchpp_trace(
                raw, trace_path, rank=rank, world=world, replica=replica, stage=stage,
                anchor_at_us=(anchor_wall_ns - min(anchors)) / 1000.0, tp=tp, clock=clock,
                cpu_durations=cfg.cpu_durations,
                extra={"engine": ENGINE, "unit_durations": "cpu" if cfg.cpu_durations else "wall", "schedule": os.path.basename(inp.path),
                       "csv": CSV_NAME, "csv_format": fmt, "anchor_wall_ns": anchor_wall_ns,
                       "attention": cfg.attention, "torch_version": torch.__version__},
                base_ns=min(anchors))
            for u in units:
                u["iteration"] = it
            if rank == 0:
                with open(os.path.join(cfg.trace_dir, CSV_NAME), "w", encoding="utf-8") as f:
                    f.write(csv_text)
                write_run_schedule(cfg.trace_dir, inp.text)
            trace_s += time.time() - tr0
        if it == last and cfg.check:
            last_grads = {n: q.grad.detach().to("cpu", torch.float64).clone()
                          for n, q in named.items() if q.grad is not None}
        loss = float(sum(float(x.detach()) for x in losses)) if stage == p - 1 else None
        iterations.append({"wall_s": wall, "cpu_s": cpu, "loss": loss})
    phases["traced"] = time.time()
    phases["ran"] = phases["traced"] - trace_s
    if own_scratch is not None:  # torchrun / Slurm: this rank's CSV and raw trace
        shutil.rmtree(own_scratch, ignore_errors=True)
    mine = rank_summary(rank, rk0, iterations, units, trace_path, phases,
                        last_grads if cfg.check else None, None)
    gathered: Optional[list[Any]] = [None] * world if rank == 0 else None
    dist.gather_object(mine, gathered, dst=0)
    dist.barrier()
    dist.destroy_process_group()
    if rank != 0:
        return None
    assert gathered is not None and tp_last is not None
    summary = world_summary(cfg, plan, schedules, gathered)
    summary["engine"] = ENGINE
    summary["torch_pp"] = dict(tp_last.padding_json(), format=fmt,
                               csv=cfg.extra.get("torchpp_csv_path") or
                               (os.path.join(cfg.trace_dir, CSV_NAME) if cfg.trace_dir else None),
                               rows=[r.split(",") for r in csv_text.splitlines()],
                               notes=tp_last.notes,
                               step_cpu_s=[[res["iterations"][i]["cpu_s"] for res in gathered]
                                           for i in range(len(schedules))])
    return summary


def write_torchpp_trace(raw_path: str, out_path: str, *, rank: int, world: int, replica: int,
                        stage: int, anchor_at_us: float, tp: TorchPPPlan,
                        extra: dict[str, Any], base_ns: int, clock: Optional[UnitClock] = None,
                        cpu_durations: bool = False) -> list[dict[str, Any]]:
    """Kineto's trace of the rank, as torch wrote it, on the run's common clock: every timestamp
    shifted so that the anchor range (taken right after a barrier) sits at anchor_at_us, the
    process named `replica r` and the thread of the `PP:` ranges `stage s` (the default lane
    mapping of docs/file-formats-traces.md), `baseTimeNanoseconds` the earliest anchor's wall
    clock, and `distributedInfo` completed with the replica, stage and what ran. Returns one
    record per F/B action (`PP:1F3`) for the summary. With `cpu_durations` (--trace-unit-time cpu)
    every F/B range lasts its thread CPU time from `clock`, placed at its wall-clock start, as our
    own engine's units do: on a shared CPU that is what the cost model predicts (the operations
    inside keep their wall-clock durations)."""
    with open(raw_path, encoding="utf-8") as f:
        doc = json.load(f)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    if not isinstance(doc, dict):
        doc = {"traceEvents": events}
    anchor = [e for e in events if isinstance(e, dict) and e.get("name") == ANCHOR and "ts" in e]
    if not anchor:
        raise RuntimeError(f"{out_path}: the trace has no {ANCHOR} range")
    shift = anchor_at_us - float(anchor[0]["ts"])
    pids, pp_tid = set(), None
    units: list[dict[str, Any]] = []
    inverse = {j: k for k, j in enumerate(tp.backward_of)}
    for e in events:
        if not isinstance(e, dict):
            continue
        if isinstance(e.get("ts"), (int, float)):
            e["ts"] = round(float(e["ts"]) + shift, 3)
        if "pid" in e and e.get("ph") != "M":
            pids.add(e["pid"])
        name = e.get("name")
        if isinstance(name, str) and name.startswith("PP:") and e.get("ph") == "X":
            pp_tid = (e.get("pid"), e.get("tid"))
            act = name[3:]
            i = 0
            while i < len(act) and act[i].isdigit():
                i += 1
            op = act[i:].rstrip("0123456789")
            wall_us = float(e.get("dur", 0))
            if op in ("F", "B") and act[i + len(op):].isdigit():
                mb = int(act[i + len(op):])
                pack = mb if op == "F" else inverse.get(mb, mb)
                cpu_ns = clock.cpu_ns.get((op, mb)) if clock is not None else None
                if cpu_durations:
                    if cpu_ns is None:
                        raise RuntimeError(f"{out_path}: no CPU time was taken for {name}")
                    e["dur"] = round(cpu_ns / 1000.0, 3)
                    e.setdefault("args", {})["wall_us"] = wall_us
                units.append({"name": name, "op": op, "microbatch": mb, "pack": pack,
                              "tokens": sum(n for _, n in tp.layouts[replica][mb]),
                              "padded_tokens": tp.pack_tokens, "rank": rank,
                              "replica": replica, "stage": stage,
                              "start_s": e["ts"] / 1e6, "wall_s": wall_us / 1e6,
                              "cpu_s": None if cpu_ns is None else cpu_ns / 1e9})
    meta = [{"name": "process_name", "ph": "M", "pid": pid, "tid": 0,
             "args": {"name": f"replica {replica}"}} for pid in sorted(pids, key=str)]
    if pp_tid is not None:
        meta.append({"name": "thread_name", "ph": "M", "pid": pp_tid[0], "tid": pp_tid[1],
                     "args": {"name": f"stage {stage}"}})
    info = dict(doc.get("distributedInfo") or {})
    info.update({"rank": rank, "world_size": world, "replica": replica, "stage": stage})
    info.update(extra)
    doc["traceEvents"] = meta + [e for e in events
                                 if not (isinstance(e, dict) and e.get("ph") == "M"
                                         and e.get("name") in ("process_name", "thread_name")
                                         and e.get("pid") in pids)]
    doc["distributedInfo"] = info
    doc["baseTimeNanoseconds"] = base_ns  # the earliest anchor's wall clock: ts is relative to it
    other = dict(doc.get("otherData") or {}) if isinstance(doc.get("otherData"), dict) else {}
    other.update({"generator": f"slimpack-run --engine {ENGINE}",
                  "clock": "microseconds since the earliest rank's anchor "
                           f"({ANCHOR}, taken right after a barrier)"})
    doc["otherData"] = other
    tmp = out_path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(doc, f, separators=(",", ":"))
    os.replace(tmp, out_path)
    return units
