"""Feeds a training loop from a dataset's sample lengths through `slimpack solve`.

Per iteration the sampler takes the next batch of samples, writes their lengths to a file, asks
`slimpack solve --lengths FILE ... --schedule-out SCHEDULE` for a schedule, and tells every rank
which samples and token ranges each of its packs needs, in the order the rank runs them. The
per-rank iterator is a PyTorch `batch_sampler`: each batch is one forward pack, a list of
`TokenRange` items, and `TokenRangeDataset` turns an item into that range's token ids (and its
next-token labels), so a `DataLoader` loads exactly the tokens the pack computes.

    sampler = SlimPackSampler(lengths, samples_per_iteration=64, workdir="schedules",
                              solve_args=["--costs", "tiny-8x256.json", "--pp", "4", "--slice", "64"])
    loader = DataLoader(TokenRangeDataset(dataset), batch_sampler=sampler.batch_sampler(rank),
                        collate_fn=collate_pack)
    for pack in loader:   # pack["iteration"], pack["pack"], pack["input_ids"], pack["labels"], ...

The solver is deterministic, so every rank can call it on its own (they write the same files; the
writes are atomic), or rank 0 solves ahead and the others find the schedule in `workdir`.
`set_epoch`, `next_iteration` and `state_dict`/`load_state_dict` let a training loop go over the
dataset epoch after epoch and resume where it stopped (slimpack-run --dataset does).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Optional, Sequence

from .schedule import Schedule, load_schedule


class SamplerError(RuntimeError):
    """`slimpack solve` failed, or its schedule does not fit the sampler's batch."""


@dataclass(frozen=True)
class TokenRange:
    """Tokens [begin, end) of dataset sample `sample`, as segment `segment` of forward pack
    `pack` in iteration `iteration` (sequence `seq` of the schedule)."""

    sample: int
    begin: int
    end: int
    iteration: int
    pack: int
    segment: int
    seq: str


@dataclass
class Iteration:
    index: int
    samples: list[int]  # dataset index of each line of the iteration's length file
    schedule_path: str
    schedule: Schedule

    def dataset_index(self, seq_id: str) -> int:
        """The dataset index of a schedule sequence (its `sample`, the line of the length file)."""
        seq = self.schedule.sequences[seq_id]
        if seq.sample is None:
            raise SamplerError(f"{self.schedule_path}: sequence \"{seq_id}\" has no sample index")
        if not 0 <= seq.sample < len(self.samples):
            raise SamplerError(f"{self.schedule_path}: sequence \"{seq_id}\" has sample "
                               f"{seq.sample}, the iteration's length file has "
                               f"{len(self.samples)} lines")
        return self.samples[seq.sample]

    def rank_packs(self, rank: int) -> list[list[TokenRange]]:
        """The forward packs rank `rank` runs, in its action order, as token ranges."""
        s = self.schedule
        if not 0 <= rank < s.world_size():
            raise SamplerError(f"rank {rank} is outside the schedule's {s.world_size()} ranks")
        rk = s.ranks[rank]
        rep = s.replicas[rk.replica]
        out = []
        for a in rk.actions:
            if a.op != "F":
                continue
            pack = rep.forward_packs[a.pack]
            out.append([TokenRange(self.dataset_index(seg.seq), seg.begin, seg.end, self.index,
                                   a.pack, j, seg.seq) for j, seg in enumerate(pack.segments)])
        return out


class SlimPackSampler:
    def __init__(self, lengths: Sequence[int], *, solve_args: Sequence[str],
                 samples_per_iteration: Optional[int] = None,
                 tokens_per_iteration: Optional[int] = None, slimpack: Optional[str] = None,
                 workdir: Optional[str] = None, shuffle: bool = False, seed: int = 0):
        if (samples_per_iteration is None) == (tokens_per_iteration is None):
            raise ValueError("give exactly one of samples_per_iteration and tokens_per_iteration")
        self.lengths = [int(n) for n in lengths]
        if any(n < 1 for n in self.lengths):
            raise ValueError("sample lengths must be positive")
        self.solve_args = list(solve_args)
        self.slimpack = slimpack or os.environ.get("SLIMPACK_BIN") or shutil.which("slimpack") \
            or "slimpack"
        self._own_workdir = workdir is None
        self.workdir = workdir or tempfile.mkdtemp(prefix="slimpack-sampler-")
        os.makedirs(self.workdir, exist_ok=True)
        self.shuffle, self.seed = shuffle, seed
        self._per_it, self._tokens = samples_per_iteration, tokens_per_iteration
        self.epoch = 0
        self.position = 0  # the next iteration of the epoch that next_iteration() returns
        self._cache: dict[int, Iteration] = {}
        self.batches: list[list[int]] = []
        self.set_epoch(0)

    def set_epoch(self, epoch: int) -> None:
        """Orders the samples for `epoch` (a shuffle seeded by seed + epoch, as
        DistributedSampler does) and starts at its first iteration."""
        order = list(range(len(self.lengths)))
        if self.shuffle:
            random.Random(self.seed + epoch).shuffle(order)
        self.batches = _batches(order, self.lengths, self._per_it, self._tokens)
        if not self.batches:
            raise ValueError("the dataset is smaller than one iteration's batch")
        self.epoch = epoch
        self.position = 0
        self._cache = {}

    def next_iteration(self) -> Iteration:
        """The next iteration of the training: the epoch's next batch, or the next epoch's
        first once this one is done."""
        if self.position >= len(self.batches):
            self.set_epoch(self.epoch + 1)
        it = self.iteration(self.position)
        self.position += 1
        return it

    def state_dict(self) -> dict[str, Any]:
        """Where the sampler stands: enough to continue a training run where it stopped."""
        return {"epoch": self.epoch, "position": self.position, "seed": self.seed,
                "shuffle": self.shuffle, "samples": len(self.lengths)}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        if state.get("samples") != len(self.lengths):
            raise ValueError(f"the sampler state is for {state.get('samples')} samples, this "
                             f"dataset has {len(self.lengths)}")
        self.seed, self.shuffle = int(state["seed"]), bool(state["shuffle"])
        self.set_epoch(int(state["epoch"]))
        self.position = int(state["position"])

    def __len__(self) -> int:
        """Iterations in the current epoch."""
        return len(self.batches)

    def iteration(self, index: int) -> Iteration:
        """Solves iteration `index` (once; later calls and other ranks reuse the file)."""
        if index in self._cache:
            return self._cache[index]
        samples = self.batches[index]
        stem = os.path.join(self.workdir, f"epoch{self.epoch:04d}.iter{index:06d}")
        lengths_path, schedule_path = stem + ".lengths.json", stem + ".schedule.json"
        text = json.dumps([self.lengths[i] for i in samples])
        fresh = os.path.exists(schedule_path) and os.path.exists(lengths_path) and \
            _read(lengths_path) == text
        if not fresh:
            _write_atomic(lengths_path, text)
            tmp = schedule_path + f".{os.getpid()}.tmp"
            cmd = [self.slimpack, "solve", "--lengths", lengths_path, *self.solve_args,
                   "--schedule-out", tmp]
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
            except OSError as e:
                raise SamplerError(f"cannot run {self.slimpack}: {e.strerror}") from None
            if proc.returncode != 0:
                msg = (proc.stderr.strip() or proc.stdout.strip()).splitlines()
                raise SamplerError(f"slimpack solve failed for iteration {index} (exit "
                                   f"{proc.returncode}): {msg[-1] if msg else ''}")
            os.replace(tmp, schedule_path)
        it = Iteration(index, samples, schedule_path, load_schedule(schedule_path))
        _check_lengths(it, self.lengths)
        self._cache[index] = it
        return it

    def batch_sampler(self, rank: int) -> "RankBatchSampler":
        return RankBatchSampler(self, rank)

    def close(self) -> None:
        if self._own_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)


class RankBatchSampler:
    """A `DataLoader` batch_sampler: one batch per forward pack of `rank`, iteration after
    iteration; `len()` is the number of batches (it solves every iteration to count them)."""

    def __init__(self, sampler: SlimPackSampler, rank: int):
        self.sampler = sampler
        self.rank = rank

    def __iter__(self) -> Iterator[list[TokenRange]]:
        for i in range(len(self.sampler)):
            yield from self.sampler.iteration(i).rank_packs(self.rank)

    def __len__(self) -> int:
        return sum(len(self.sampler.iteration(i).rank_packs(self.rank))
                   for i in range(len(self.sampler)))


class TokenRangeDataset:
    """Wraps a dataset of token-id sequences (anything `base[i]` returns a 1-D sequence of ids
    for) so that `dataset[TokenRange]` gives that range's inputs and next-token labels."""

    def __init__(self, base: Any, get_ids: Optional[Callable[[Any], Any]] = None):
        self.base = base
        self.get_ids = get_ids or (lambda item: item)

    def __getitem__(self, r: TokenRange) -> dict[str, Any]:
        import torch

        ids = torch.as_tensor(self.get_ids(self.base[r.sample]))
        return {"range": r, "input_ids": ids[r.begin:r.end],
                "labels": ids[r.begin + 1:r.end + 1],
                "positions": torch.arange(r.begin, r.end)}

    def __len__(self) -> int:
        return len(self.base)


def collate_pack(items: list[dict[str, Any]]) -> dict[str, Any]:
    """One pack's rows in the schedule's message layout (segments in pack order, tokens in
    sequence order), with `cu_seqlens` marking the segments. A segment that ends its sequence has
    one label fewer than tokens (no next token): `labels` is padded with -100 there."""
    import torch

    ranges = [it["range"] for it in items]
    inputs = torch.cat([it["input_ids"] for it in items])
    labels = []
    for it in items:
        lab = it["labels"]
        missing = it["input_ids"].numel() - lab.numel()
        if missing:
            lab = torch.cat([lab, torch.full((missing,), -100, dtype=lab.dtype)])
        labels.append(lab)
    cu = [0]
    for r in ranges:
        cu.append(cu[-1] + r.end - r.begin)
    return {"iteration": ranges[0].iteration, "pack": ranges[0].pack, "ranges": ranges,
            "input_ids": inputs, "labels": torch.cat(labels),
            "positions": torch.cat([it["positions"] for it in items]),
            "cu_seqlens": torch.tensor(cu, dtype=torch.int32)}


def _batches(order: list[int], lengths: list[int], per_it: Optional[int],
             tokens: Optional[int]) -> list[list[int]]:
    out: list[list[int]] = []
    if per_it is not None:
        if per_it < 1:
            raise ValueError("samples_per_iteration must be at least 1")
        for i in range(0, len(order) - per_it + 1, per_it):  # the last partial batch is dropped
            out.append(order[i:i + per_it])
        return out
    assert tokens is not None
    if tokens < 1:
        raise ValueError("tokens_per_iteration must be at least 1")
    cur: list[int] = []
    n = 0
    for i in order:
        if cur and n + lengths[i] > tokens:
            out.append(cur)
            cur, n = [], 0
        cur.append(i)
        n += lengths[i]
    if cur and n >= tokens:
        out.append(cur)
    return out


def _check_lengths(it: Iteration, lengths: list[int]) -> None:
    seen = set()
    for q in it.schedule.sequences.values():
        idx = it.dataset_index(q.id)
        if lengths[idx] != q.length:
            raise SamplerError(f"{it.schedule_path}: sequence \"{q.id}\" has {q.length} tokens, "
                               f"dataset sample {idx} has {lengths[idx]}")
        seen.add(idx)
    if seen != set(it.samples):
        raise SamplerError(f"{it.schedule_path}: the schedule trains {len(seen)} of the "
                           f"iteration's {len(it.samples)} samples")


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


def _write_atomic(path: str, text: str) -> None:
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)
