"""Reads a slimpack-schedule v1 file (docs/file-formats-schedule.md) into plain Python objects.

The file is the contract between the C++ writer and this runtime, so the reader checks the
structure it relies on and stops at the first problem with the file name and the JSON path, in the
CLI's style (`schedule.json: $.ranks[1].actions[4].op: unknown action "FWD"`). What the runtime
can execute beyond the structure is decided in `support.py` and `validate.py`.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field
from typing import Any, Optional

from .errors import UserError


class ActionKind(str, enum.Enum):
    """The ops of a rank's action list (docs/file-formats-schedule.md). A str enum: a kind equals
    its spelling in the file, so `a.op == "F"` and `a.op == ActionKind.F` are the same test."""

    F = "F"
    B = "B"
    SEND_F = "SEND_F"
    RECV_F = "RECV_F"
    SEND_B = "SEND_B"
    RECV_B = "RECV_B"
    ALLREDUCE = "ALLREDUCE"

    def __str__(self) -> str:
        return self.value

    @property
    def is_p2p(self) -> bool:
        return self in P2P_OPS

    @property
    def is_compute(self) -> bool:
        return self in (ActionKind.F, ActionKind.B)


ACTION_OPS = tuple(k.value for k in ActionKind)
P2P_OPS = (ActionKind.SEND_F, ActionKind.RECV_F, ActionKind.SEND_B, ActionKind.RECV_B)


@dataclass(frozen=True)
class ModelDims:
    name: str
    layers: int
    hidden: int
    ffn: int
    heads: int
    kv_heads: int
    vocab: int
    head_dim: Optional[int] = None  # when the planner wrote it (hidden / heads otherwise)
    tied_embeddings: bool = False
    attention_bias: str = "none"  # "none", "qkv" or "qkvo"


@dataclass
class Setup:
    stages: int
    replicas: int
    tp: int
    cp: int
    schedule: str
    warmup_extra: int
    strategy: str
    slice_size: Optional[int]
    model: Optional[ModelDims]
    stage_layers: list[int]
    recompute_layers: list[int]


@dataclass
class Sequence:
    id: str
    length: int
    sample: Optional[int]
    replica: int
    atoms: list[int]  # cut points a0 = 0 < ... < an = length

    def atom_count(self) -> int:
        return len(self.atoms) - 1


@dataclass
class Segment:
    seq: str
    begin: int
    end: int
    first: int  # first atom (inclusive)
    last: int  # last atom (exclusive)
    shards: int = 1


@dataclass
class Consume:
    seq: str
    first: int
    last: int
    forward_pack: int


@dataclass
class Pack:
    segments: list[Segment]
    tokens: int
    consumes: list[Consume] = field(default_factory=list)
    frees: list[tuple[str, int, int]] = field(default_factory=list)
    path: str = ""


@dataclass
class Action:
    op: ActionKind
    path: str
    pack: int = -1
    peer: int = -1
    tag: int = -1
    tokens: int = 0
    group: tuple[int, ...] = ()


@dataclass
class Rank:
    rank: int
    replica: int
    stage: int
    first_layer: int
    layers: int
    recompute: int
    actions: list[Action]


@dataclass
class Replica:
    forward_packs: list[Pack]
    backward_packs: list[Pack]


@dataclass
class Schedule:
    path: str
    setup: Setup
    sequences: dict[str, Sequence]
    replicas: list[Replica]
    ranks: list[Rank]  # indexed by rank
    raw: dict[str, Any]
    text: str = ""  # the exact bytes read: what the ranks execute is what was validated

    def world_size(self) -> int:
        """Pipeline ranks: one per (replica, stage), each with its own action list."""
        return self.setup.stages * self.setup.replicas

    def processes(self) -> int:
        """Processes a run starts: tp per pipeline rank (tensor_parallel.py's layout)."""
        return self.world_size() * self.setup.tp

    def total_tokens(self) -> int:
        """The iteration's token count: the loss divisor that makes packs and replicas sum up."""
        return sum(s.length for s in self.sequences.values())

    def error(self, path: str, reason: str) -> UserError:
        return UserError(f"{self.path}: {path}: {reason}")


class _Reader:
    """Typed field access that names the file and JSON path on every failure."""

    def __init__(self, path: str):
        self.path = path

    def fail(self, where: str, reason: str) -> UserError:
        return UserError(f"{self.path}: {where}: {reason}")

    def obj(self, value: Any, where: str) -> dict:
        if not isinstance(value, dict):
            raise self.fail(where, "is not an object")
        return value

    def arr(self, value: Any, where: str) -> list:
        if not isinstance(value, list):
            raise self.fail(where, "is not an array")
        return value

    def get(self, o: dict, key: str, where: str) -> Any:
        if key not in o:
            # Named as the C++ reader names it (the same corpus is fed to both).
            raise self.fail(f"{where}.{key}", "missing required field")
        return o[key]

    def int_(self, o: dict, key: str, where: str, minimum: Optional[int] = 0,
             default: Optional[int] = None) -> int:
        if key not in o and default is not None:
            return default
        v = self.get(o, key, where)
        if isinstance(v, bool) or not isinstance(v, int):
            if isinstance(v, float) and v.is_integer():
                v = int(v)
            else:
                raise self.fail(f"{where}.{key}", "is not an integer")
        if minimum is not None and v < minimum:
            raise self.fail(f"{where}.{key}", f"must be at least {minimum} (got {v})")
        return v

    def str_(self, o: dict, key: str, where: str, default: Optional[str] = None) -> str:
        if key not in o and default is not None:
            return default
        v = self.get(o, key, where)
        if not isinstance(v, str):
            raise self.fail(f"{where}.{key}", "is not a string")
        return v

    def int_list(self, o: dict, key: str, where: str) -> list[int]:
        v = self.arr(self.get(o, key, where), f"{where}.{key}")
        out = []
        for i, x in enumerate(v):
            if isinstance(x, bool) or not isinstance(x, int):
                raise self.fail(f"{where}.{key}[{i}]", "is not an integer")
            out.append(x)
        return out

    def range_(self, o: dict, key: str, where: str) -> tuple[int, int]:
        v = self.int_list(o, key, where)
        if len(v) != 2:
            raise self.fail(f"{where}.{key}", "is not a [first, last) pair of atom indices")
        return v[0], v[1]


def load_schedule(path: str) -> Schedule:
    """Reads and checks a schedule file; raises UserError naming the file and JSON path."""
    try:
        with open(path, "r", encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise UserError(f"{path}: cannot open: {e.strerror}") from None
    except UnicodeDecodeError:
        raise UserError(f"{path}: not a text file (invalid UTF-8)") from None
    return parse_schedule_text(text, path)


def parse_schedule_text(text: str, path: str) -> Schedule:
    """Reads a schedule from its text; `path` names it in messages."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise UserError(f"{path}: JSON error at line {e.lineno} column {e.colno}: {e.msg}") from None
    except RecursionError:
        raise UserError(f"{path}: JSON error: nested too deeply") from None
    s = parse_schedule(doc, path)
    s.text = text
    return s


def parse_schedule(doc: Any, path: str) -> Schedule:
    r = _Reader(path)
    doc = r.obj(doc, "$")
    fmt = doc.get("format")
    if fmt != "slimpack-schedule":
        if isinstance(fmt, str) and fmt == "slimpack-plan" or "forward_packs" in doc:
            raise r.fail("$.format", "this is a plan file, not a schedule: write one with "
                         "`slimpack solve ... --schedule-out FILE`")
        raise r.fail("$.format", 'is not "slimpack-schedule"')
    version = r.int_(doc, "version", "$")
    if version != 1:
        raise r.fail("$.version", f"version {version} is not supported (this runtime reads 1)")
    setup = _parse_setup(r, r.obj(r.get(doc, "setup", "$"), "$.setup"))
    sequences = _parse_sequences(r, doc, setup)
    replicas = _parse_replicas(r, doc, setup, sequences)
    ranks = _parse_ranks(r, doc, setup)
    return Schedule(path, setup, sequences, replicas, ranks, doc)


def _parse_setup(r: _Reader, s: dict) -> Setup:
    w = "$.setup"
    stages = r.int_(s, "stages", w, 1)
    replicas = r.int_(s, "replicas", w, 1)
    tp = r.int_(s, "tp", w, 1, default=1)
    cp = r.int_(s, "cp", w, 1, default=1)
    schedule = r.str_(s, "schedule", w)
    warmup = r.int_(s, "warmup_extra", w, 0, default=0)
    strategy = r.str_(s, "strategy", w, default="")
    slice_size = s.get("slice_size")
    if slice_size is not None and (isinstance(slice_size, bool) or not isinstance(slice_size, int)):
        slice_size = None
    model = None
    m = s.get("model")
    if m is not None:
        m = r.obj(m, f"{w}.model")
        mw = f"{w}.model"
        model = ModelDims(name=r.str_(m, "name", mw, default="model"),
                          layers=r.int_(m, "layers", mw, 1), hidden=r.int_(m, "hidden", mw, 1),
                          ffn=r.int_(m, "ffn", mw, 1), heads=r.int_(m, "heads", mw, 1),
                          kv_heads=r.int_(m, "kv_heads", mw, 1), vocab=r.int_(m, "vocab", mw, 1),
                          head_dim=r.int_(m, "head_dim", mw, 1) if m.get("head_dim") is not None
                          else None, tied_embeddings=m.get("tied_embeddings") is True,
                          attention_bias=str(m.get("attention_bias") or "none"))
    stage_layers = r.int_list(s, "stage_layers", w) if "stage_layers" in s else []
    recompute = r.int_list(s, "recompute_layers", w) if "recompute_layers" in s else [0] * stages
    if stage_layers and len(stage_layers) != stages:
        raise r.fail(f"{w}.stage_layers", f"has {len(stage_layers)} entries for {stages} stages")
    if len(recompute) != stages:
        raise r.fail(f"{w}.recompute_layers", f"has {len(recompute)} entries for {stages} stages")
    for i, n in enumerate(stage_layers):
        if n < 1:
            raise r.fail(f"{w}.stage_layers[{i}]", f"must be at least 1 (got {n})")
    for i, n in enumerate(recompute):
        if n < 0 or (stage_layers and n > stage_layers[i]):
            raise r.fail(f"{w}.recompute_layers[{i}]",
                         f"{n} is not between 0 and the stage's layers")
    if model is not None and stage_layers and sum(stage_layers) != model.layers:
        raise r.fail(f"{w}.stage_layers", f"sums to {sum(stage_layers)}, the model has "
                     f"{model.layers} layers")
    return Setup(stages, replicas, tp, cp, schedule, warmup, strategy, slice_size, model,
                 stage_layers, recompute)


def _parse_sequences(r: _Reader, doc: dict, setup: Setup) -> dict[str, Sequence]:
    out: dict[str, Sequence] = {}
    for i, s in enumerate(r.arr(r.get(doc, "sequences", "$"), "$.sequences")):
        w = f"$.sequences[{i}]"
        s = r.obj(s, w)
        sid = r.str_(s, "id", w)
        if sid in out:
            raise r.fail(f"{w}.id", f'sequence "{sid}" is listed twice')
        length = r.int_(s, "length", w, 1)
        sample = s.get("sample")
        if sample is not None and (isinstance(sample, bool) or not isinstance(sample, int)
                                   or sample < 0):
            raise r.fail(f"{w}.sample", "is not a non-negative integer")
        replica = r.int_(s, "replica", w, 0, default=0)
        if replica >= setup.replicas:
            raise r.fail(f"{w}.replica", f"{replica} is not below replicas = {setup.replicas}")
        atoms = r.int_list(s, "atoms", w)
        if len(atoms) < 2 or atoms[0] != 0 or atoms[-1] != length:
            raise r.fail(f"{w}.atoms", f"must run from 0 to the length {length}")
        for k in range(1, len(atoms)):
            if atoms[k] <= atoms[k - 1]:
                raise r.fail(f"{w}.atoms[{k}]", "atoms are not strictly increasing")
        out[sid] = Sequence(sid, length, sample, replica, atoms)
    if not out:
        raise r.fail("$.sequences", "is empty")
    return out


def _parse_segment(r: _Reader, s: Any, w: str, seqs: dict[str, Sequence]) -> Segment:
    s = r.obj(s, w)
    sid = r.str_(s, "seq", w)
    if sid not in seqs:
        raise r.fail(f"{w}.seq", f'unknown sequence "{sid}"')
    seq = seqs[sid]
    begin = r.int_(s, "begin", w, 0)
    end = r.int_(s, "end", w, 1)
    first, last = r.range_(s, "atoms", w)
    if not (0 <= first < last <= seq.atom_count()):
        raise r.fail(f"{w}.atoms", f"[{first}, {last}) is not an atom range of \"{sid}\"")
    if seq.atoms[first] != begin or seq.atoms[last] != end:
        raise r.fail(f"{w}.atoms", f"atoms [{first}, {last}) are tokens [{seq.atoms[first]}, "
                     f"{seq.atoms[last]}), the segment says [{begin}, {end})")
    shards = r.int_(s, "shards", w, 1, default=1)
    return Segment(sid, begin, end, first, last, shards)


def _parse_pack(r: _Reader, p: Any, w: str, seqs: dict[str, Sequence], backward: bool) -> Pack:
    p = r.obj(p, w)
    segs = [_parse_segment(r, s, f"{w}.segments[{i}]", seqs)
            for i, s in enumerate(r.arr(r.get(p, "segments", w), f"{w}.segments"))]
    if not segs:
        raise r.fail(f"{w}.segments", "is empty")
    tokens = r.int_(p, "tokens", w, 1)
    if sum(s.end - s.begin for s in segs) != tokens:
        raise r.fail(f"{w}.tokens", f"{tokens} is not the sum of its segments' tokens "
                     f"({sum(s.end - s.begin for s in segs)})")
    pack = Pack(segs, tokens, path=w)
    if backward:
        for i, c in enumerate(r.arr(r.get(p, "consumes", w), f"{w}.consumes")):
            cw = f"{w}.consumes[{i}]"
            c = r.obj(c, cw)
            sid = r.str_(c, "seq", cw)
            if sid not in seqs:
                raise r.fail(f"{cw}.seq", f'unknown sequence "{sid}"')
            first, last = r.range_(c, "atoms", cw)
            if not (0 <= first < last <= seqs[sid].atom_count()):
                raise r.fail(f"{cw}.atoms", f"[{first}, {last}) is not an atom range of \"{sid}\"")
            pack.consumes.append(Consume(sid, first, last, r.int_(c, "forward_pack", cw, 0)))
        for i, fr in enumerate(r.arr(r.get(p, "frees", w), f"{w}.frees")):
            fw = f"{w}.frees[{i}]"
            fr = r.obj(fr, fw)
            sid = r.str_(fr, "seq", fw)
            if sid not in seqs:
                raise r.fail(f"{fw}.seq", f'unknown sequence "{sid}"')
            first, last = r.range_(fr, "atoms", fw)
            if not (0 <= first < last <= seqs[sid].atom_count()):
                raise r.fail(f"{fw}.atoms", f"[{first}, {last}) is not an atom range of \"{sid}\"")
            pack.frees.append((sid, first, last))
    return pack


def _parse_replicas(r: _Reader, doc: dict, setup: Setup,
                    seqs: dict[str, Sequence]) -> list[Replica]:
    reps = r.arr(r.get(doc, "replicas", "$"), "$.replicas")
    if len(reps) != setup.replicas:
        raise r.fail("$.setup.replicas", f"{setup.replicas}, but $.replicas has {len(reps)} "
                     "entries")
    out = []
    for i, rep in enumerate(reps):
        w = f"$.replicas[{i}]"
        rep = r.obj(rep, w)
        fwd = [_parse_pack(r, p, f"{w}.forward_packs[{k}]", seqs, False)
               for k, p in enumerate(r.arr(r.get(rep, "forward_packs", w), f"{w}.forward_packs"))]
        bwd = [_parse_pack(r, p, f"{w}.backward_packs[{k}]", seqs, True)
               for k, p in enumerate(r.arr(r.get(rep, "backward_packs", w), f"{w}.backward_packs"))]
        for packs in (fwd, bwd):
            for p in packs:
                for j, s in enumerate(p.segments):
                    if seqs[s.seq].replica != i:
                        raise r.fail(f"{p.path}.segments[{j}].seq", f'sequence "{s.seq}" belongs '
                                     f"to replica {seqs[s.seq].replica}, not {i}")
        out.append(Replica(fwd, bwd))
    return out


def _parse_action(r: _Reader, a: Any, w: str) -> Action:
    a = r.obj(a, w)
    op = r.str_(a, "op", w)
    if op not in ACTION_OPS:
        raise r.fail(f"{w}.op", f'unknown action "{op}" (known: {", ".join(ACTION_OPS)})')
    act = Action(op=ActionKind(op), path=w)
    if op == "ALLREDUCE":
        act.group = tuple(r.int_list(a, "group", w))
        if not act.group:
            raise r.fail(f"{w}.group", "is empty")
        return act
    act.pack = r.int_(a, "pack", w, 0)
    if op in P2P_OPS:
        act.peer = r.int_(a, "peer", w, 0)
        act.tag = r.int_(a, "tag", w, 0)
        act.tokens = r.int_(a, "tokens", w, 1)
    return act


def _parse_ranks(r: _Reader, doc: dict, setup: Setup) -> list[Rank]:
    ranks = r.arr(r.get(doc, "ranks", "$"), "$.ranks")
    world = setup.stages * setup.replicas
    out: list[Optional[Rank]] = [None] * world
    for i, rk in enumerate(ranks):
        w = f"$.ranks[{i}]"
        rk = r.obj(rk, w)
        rank = r.int_(rk, "rank", w, 0)
        replica = r.int_(rk, "replica", w, 0)
        stage = r.int_(rk, "stage", w, 0)
        if replica >= setup.replicas or stage >= setup.stages:
            raise r.fail(w, f"(replica {replica}, stage {stage}) is outside the setup's "
                         f"{setup.replicas} x {setup.stages}")
        if rank != replica * setup.stages + stage:
            raise r.fail(f"{w}.rank", f"{rank} is not replica * stages + stage = "
                         f"{replica * setup.stages + stage}")
        if out[rank] is not None:
            raise r.fail(f"{w}.rank", f"rank {rank} is listed twice")
        first = r.int_(rk, "first_layer", w, 0)
        layers = r.int_(rk, "layers", w, 0)  # 0 in a plan without a model (refused later)
        recompute = r.int_(rk, "recompute", w, 0)
        if setup.stage_layers:
            want_first = sum(setup.stage_layers[:stage])
            if first != want_first or layers != setup.stage_layers[stage]:
                raise r.fail(w, f"layers {first}..{first + layers - 1} differ from "
                             f"setup.stage_layers (stage {stage} holds {want_first}.."
                             f"{want_first + setup.stage_layers[stage] - 1})")
        if setup.model is not None and layers < 1:
            raise r.fail(f"{w}.layers", f"must be at least 1 (got {layers})")
        if recompute != setup.recompute_layers[stage]:
            raise r.fail(f"{w}.recompute", f"{recompute} differs from "
                         f"setup.recompute_layers[{stage}] = {setup.recompute_layers[stage]}")
        acts = [_parse_action(r, a, f"{w}.actions[{j}]")
                for j, a in enumerate(r.arr(r.get(rk, "actions", w), f"{w}.actions"))]
        out[rank] = Rank(rank, replica, stage, first, layers, recompute, acts)
    missing = [k for k, x in enumerate(out) if x is None]
    if missing:
        raise r.fail("$.ranks", f"rank {missing[0]} is missing (one rank per (replica, stage): "
                     f"{world} ranks)")
    if not setup.stage_layers:
        setup.stage_layers = [rk.layers for rk in out]  # type: ignore[union-attr]
    return out  # type: ignore[return-value]
