"""A schedule as PyTorch's own pipeline runtime runs it: `torch.distributed.pipelining`'s
`_PipelineScheduleRuntime` reads a CSV, one row per pipeline rank and one action per cell
(`0F0`, `1B3`; with communication `0SEND_F0`, `1RECV_F0`, `1WAIT_SEND_B2` ...), loaded by its
`_load_csv` in the format `compute_only` or `compute_comms`.

What torch can run, read in its source (`schedules.py`, `stage.py`, 2.15):
- one micro-batch count for every stage, one forward and one backward per micro-batch, and the
  backward of micro-batch k is the backward of forward k's autograd graph: no asymmetric pack
  counts, no backward pack that regroups the work of several forward packs;
- every micro-batch has the shapes of micro-batch 0 (the stage's receive buffers are allocated
  once): every pack is padded to the largest pack's token count;
- a micro-batch is one autograd graph per stage, so a sequence cut into slices over several packs
  (slice-level causality: a later slice reads the cached keys and values of the earlier ones)
  cannot be expressed.

So our forward pack k is torch's micro-batch k, our stage s torch's stage s (one stage per
pipeline rank), and a replica d is its own pipeline of the same CSV (the replicas' gradients are
all-reduced afterwards, as our own engine does). A backward pack that is exactly the backward of
one forward pack j runs as `B j`, wherever the plan puts it.

`torchpp_plan(schedule)` converts, or raises UserError naming the first reason the plan cannot
run. No torch import here: the C++ export and the explorer can be checked against this module.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from .errors import UserError
from .schedule import ActionKind, Pack, Schedule

FORMATS = ("compute_only", "compute_comms")
SCHEDULES = ("1f1b", "gpipe")
NEAREST = ("solve it with --strategy balanced or --strategy fixed (whole sequences, one backward "
           "pack per forward pack), which torch-pp runs")


@dataclass
class TorchPPPlan:
    """A schedule converted for torch's runtime."""

    stages: int
    replicas: int
    microbatches: int
    pack_tokens: int  # every micro-batch's rows (the largest pack's tokens)
    # layouts[replica][k]: the sequences of micro-batch k in row order, (seq, length); the rows
    # after them up to pack_tokens are padding
    layouts: list[list[list[tuple[str, int]]]]
    # micro-batch of each backward pack (our backward pack k is torch's `B backward_of[k]`)
    backward_of: list[int]
    rows: list[list[str]]  # compute_only: per pipeline rank (= stage) its actions in order
    tokens: int  # real tokens of the iteration (all replicas)
    notes: list[str] = field(default_factory=list)

    @property
    def padded_tokens(self) -> int:
        """Rows every stage computes in the iteration, all replicas: packs x pack_tokens."""
        return self.replicas * self.microbatches * self.pack_tokens

    @property
    def pad_tokens(self) -> int:
        return self.padded_tokens - self.tokens

    @property
    def padding_fraction(self) -> float:
        """Share of the computed rows that are padding."""
        return self.pad_tokens / self.padded_tokens if self.padded_tokens else 0.0

    def padding_json(self) -> dict:
        per_pack = [[sum(n for _, n in mb) for mb in rep] for rep in self.layouts]
        return {"pack_tokens": self.pack_tokens, "microbatches": self.microbatches,
                "replicas": self.replicas, "tokens": self.tokens,
                "padded_tokens": self.padded_tokens, "pad_tokens": self.pad_tokens,
                "padding_fraction": self.padding_fraction, "pack_real_tokens": per_pack}

    def csv_rows(self, fmt: str = "compute_only", wait_sends: bool = True) -> list[list[str]]:
        if fmt == "compute_only":
            return [list(r) for r in self.rows]
        if fmt == "compute_comms":
            return add_comms(self.rows, wait_sends)
        raise ValueError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})")

    def csv_text(self, fmt: str = "compute_only", wait_sends: bool = True) -> str:
        return rows_to_csv(self.csv_rows(fmt, wait_sends))


def rows_to_csv(rows: list[list[str]]) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    for r in rows:
        w.writerow(r)
    return out.getvalue()


def refuse(s: Schedule, reason: str) -> UserError:
    return UserError(f"{s.path}: --engine torch-pp cannot run this plan: {reason}; {NEAREST}")


def _and_list(ks: list[int]) -> str:
    words = [str(k) for k in ks]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _packs_list(ks: list[int]) -> str:
    ks = sorted(set(ks))
    if len(ks) > 2 and ks == list(range(ks[0], ks[-1] + 1)):
        return f"{ks[0]}-{ks[-1]}"
    return _and_list(ks)


def _pack_key(p: Pack) -> list[tuple[str, int, int]]:
    return sorted((g.seq, g.begin, g.end) for g in p.segments)


def torchpp_plan(s: Schedule) -> TorchPPPlan:
    """Converts `s`, or raises UserError with the first reason torch's runtime cannot run it."""
    st = s.setup
    if st.tp > 1 or st.cp > 1:
        what = f"tensor parallelism (tp = {st.tp})" if st.tp > 1 else \
            f"context parallelism (cp = {st.cp})"
        raise refuse(s, f"{what}: torch-pp runs one process per pipeline rank, solve with "
                        "--tp 1 --cp 1 or run it with our engine")
    if st.schedule not in SCHEDULES:
        raise refuse(s, f'schedule "{st.schedule}" (torch-pp runs the 1f1b and gpipe orders)')
    counts = sorted({len(r.forward_packs) for r in s.replicas})
    if len(counts) > 1:
        raise refuse(s, f"replicas have {_and_list(counts)} packs (one CSV has one "
                        "micro-batch count)")
    layouts: list[list[list[tuple[str, int]]]] = []
    backward_of: list[list[int]] = []
    for r, rep in enumerate(s.replicas):
        mf, mb = len(rep.forward_packs), len(rep.backward_packs)
        where = f"replica {r}: " if len(s.replicas) > 1 else ""
        if mf != mb:
            raise refuse(s, f"{where}forward and backward pack counts differ ({mf} forward, {mb} "
                            "backward packs; torch runs one backward per micro-batch, the "
                            "backward of its forward)")
        # A backward pack must be the backward of exactly one forward pack.
        for k, bp in enumerate(rep.backward_packs):
            fps = sorted({c.forward_pack for c in bp.consumes})
            if len(fps) > 1:
                raise refuse(s, f"{where}backward pack {k} regroups forward packs "
                                f"{_packs_list(fps)}")
        # Every sequence whole in one forward pack, as one segment.
        seen: dict[str, list[int]] = {}
        for k, fp in enumerate(rep.forward_packs):
            for g in fp.segments:
                seen.setdefault(g.seq, []).append(k)
        for seq, ks in seen.items():
            if len(set(ks)) > 1:
                raise refuse(s, f"{where}sequence {seq} is sliced across packs {_packs_list(ks)}")
            if len(ks) > 1:
                raise refuse(s, f"{where}sequence {seq} is cut into {len(ks)} segments in "
                                f"forward pack {ks[0]}")
        # Each backward pack is exactly one forward pack's backward, each forward pack once.
        mapping = []
        taken: dict[int, int] = {}
        for k, bp in enumerate(rep.backward_packs):
            j = bp.consumes[0].forward_pack if bp.consumes else -1
            if j < 0 or _pack_key(bp) != _pack_key(rep.forward_packs[j]):
                bseqs = sorted({g.seq for g in bp.segments})
                sliced = [q for q in bseqs
                          if any(g.seq == q for kk, other in enumerate(rep.backward_packs)
                                 if kk != k for g in other.segments)]
                if sliced:
                    ks = [kk for kk, other in enumerate(rep.backward_packs)
                          if any(g.seq == sliced[0] for g in other.segments)]
                    raise refuse(s, f"{where}sequence {sliced[0]} is sliced across backward "
                                    f"packs {_packs_list(ks)}")
                raise refuse(s, f"{where}backward pack {k} is not the whole backward of forward "
                                f"pack {j}")
            if j in taken:
                raise refuse(s, f"{where}backward packs {taken[j]} and {k} both run the backward "
                                f"of forward pack {j}")
            taken[j] = k
            mapping.append(j)
        layouts.append([[(g.seq, g.end - g.begin) for g in fp.segments]
                        for fp in rep.forward_packs])
        backward_of.append(mapping)
    if any(m != backward_of[0] for m in backward_of):
        r = next(i for i, m in enumerate(backward_of) if m != backward_of[0])
        raise refuse(s, f"replicas 0 and {r} pair backward and forward packs differently (one "
                        "CSV serves every replica)")
    rows: list[list[str]] = []
    for stage in range(st.stages):
        per_rep = []
        for rk in s.ranks:
            if rk.stage != stage:
                continue
            cells = []
            for a in rk.actions:
                if a.op == ActionKind.F:
                    cells.append(f"{stage}F{a.pack}")
                elif a.op == ActionKind.B:
                    cells.append(f"{stage}B{backward_of[0][a.pack]}")
            per_rep.append((rk.replica, cells))
        first = per_rep[0][1]
        for rep_i, cells in per_rep[1:]:
            if cells != first:
                raise refuse(s, f"stage {stage} runs its packs in another order on replica "
                                f"{rep_i} than on replica 0 (one CSV serves every replica)")
        rows.append(first)
    pack_tokens = max((sum(n for _, n in mb) for rep in layouts for mb in rep), default=0)
    notes = []
    if any(st.recompute_layers):
        notes.append("recompute_layers ignored: torch's runtime keeps every activation")
    return TorchPPPlan(stages=st.stages, replicas=st.replicas, microbatches=counts[0],
                       pack_tokens=pack_tokens, layouts=layouts, backward_of=backward_of[0],
                       rows=rows, tokens=s.total_tokens(), notes=notes)


# ----- compute_comms: torch's lowering, written out -------------------------------------------

def _parse(cell: str) -> tuple[int, str, int]:
    i = 0
    while i < len(cell) and cell[i].isdigit():
        i += 1
    j = len(cell)
    while j > i and cell[j - 1].isdigit():
        j -= 1
    return int(cell[:i]), cell[i:j], int(cell[j:])


def add_comms(rows: list[list[str]], wait_sends: bool = True) -> list[list[str]]:
    """The compute_comms rows of compute-only `rows` (one stage per rank, rank = stage), as
    torch's `_add_send_recv` places the communication: a send right after the compute that
    produces it, the peer's receive appended to the peer's row at the same moment (ranks swept in
    order, an action scheduled once what it needs is in its row); then, with `wait_sends` (torch
    2.11+ requires them), `_add_wait_send`'s waits: a forward send waits after the local backward
    of the same micro-batch, every other send at the end of the row. torch's own lowering of a
    compute_only file adds UNSHARD/RESHARD (FSDP) and REDUCE_GRAD actions too; they do nothing
    without FSDP and are left out here."""
    p = len(rows)
    remaining = {r: [_parse(c) for c in rows[r]] for r in range(p) if rows[r]}
    out: dict[int, list[str]] = {r: [] for r in range(p)}
    prev: dict[int, set[tuple[int, str, int]]] = {r: set() for r in range(p)}

    def ready(r: int, a: tuple[int, str, int]) -> bool:
        s, op, k = a
        if op == "F" and s != 0:
            return (s, "RECV_F", k) in prev[r] or (s - 1, "F", k) in prev[r]
        if op in ("B", "I") and s != p - 1:
            return ((s, "RECV_B", k) in prev[r] or (s + 1, "I", k) in prev[r]
                    or (s + 1, "B", k) in prev[r])
        return True

    while remaining:
        progress = False
        for r in sorted(remaining):
            a = remaining[r][0]
            if not ready(r, a):
                continue
            s, op, k = a
            out[r].append(f"{s}{op}{k}")
            prev[r].add(a)
            if op == "F" and s != p - 1:
                send, recv, peer = (s, "SEND_F", k), (s + 1, "RECV_F", k), s + 1
            elif op in ("B", "I") and s != 0:
                send, recv, peer = (s, "SEND_B", k), (s - 1, "RECV_B", k), s - 1
            else:
                send = None
            if send is not None:
                out[r].append(f"{send[0]}{send[1]}{send[2]}")
                prev[r].add(send)
                out[peer].append(f"{recv[0]}{recv[1]}{recv[2]}")
                prev[peer].add(recv)
            remaining[r].pop(0)
            if not remaining[r]:
                del remaining[r]
            progress = True
        if not progress:
            raise ValueError("the compute-only rows cannot be lowered: no rank can make progress")
    if not wait_sends:
        return [out[r] for r in range(p)]
    result = []
    for r in range(p):
        row: list[str] = []
        pending: dict[tuple[str, int, int], None] = {}
        for cell in out[r]:
            row.append(cell)
            s, op, k = _parse(cell)
            if op in ("SEND_F", "SEND_B"):
                pending[(op, s, k)] = None
            if op in ("B", "I") and ("SEND_F", s, k) in pending:
                row.append(f"{s}WAIT_SEND_F{k}")
                del pending[("SEND_F", s, k)]
        for op, s, k in pending:
            row.append(f"{s}WAIT_{op}{k}")
        result.append(row)
    return result
