"""Where a sequence's token ids come from: seeded random ids (a schedule alone), or a dataset of
real token ids (`--dataset`), one list of ids per sample.

A dataset file is either JSON (a list of samples, each a list of token ids) or text, read as bytes
(a byte-level vocabulary of 256 ids) and cut into one sample per paragraph (blank lines separate
paragraphs), so that a folder of documents (e.g. the licence texts Debian ships in
/usr/share/common-licenses) gives samples of many lengths, which is what the packing is for. A
sample of n ids is a sequence of n - 1 tokens: inputs ids[:-1], next-token targets ids[1:].
"""

from __future__ import annotations

import json
import os
from typing import Optional, Protocol

import torch

from .errors import UserError
from .schedule import Schedule, Sequence
from .tokens import token_ids

BYTE_VOCAB = 256


class TokenSource(Protocol):
    def ids(self, seq: Sequence) -> torch.Tensor:
        """(length + 1,) int64 ids of the sequence: inputs [:-1], targets [1:]."""
        ...


class RandomTokens:
    """Seeded random ids (tokens.py): the same on every rank and in the reference."""

    def __init__(self, vocab: int, seed: int):
        self.vocab, self.seed = vocab, seed

    def ids(self, seq: Sequence) -> torch.Tensor:
        return token_ids(seq, self.vocab, self.seed)


class GivenTokens:
    """The ids the coordinator read from the dataset for this iteration, by sequence id."""

    def __init__(self, by_seq: dict[str, list[int]]):
        self.by_seq = by_seq

    def ids(self, seq: Sequence) -> torch.Tensor:
        return torch.tensor(self.by_seq[seq.id], dtype=torch.int64)


def token_source(tokens: Optional[dict[str, list[int]]], vocab: int, seed: int) -> TokenSource:
    return RandomTokens(vocab, seed) if tokens is None else GivenTokens(tokens)


def load_dataset(paths: list[str], max_tokens: Optional[int] = None) -> tuple[list[list[int]], str]:
    """Reads the samples of every path (a file, or a folder: its files in name order). Returns the
    samples and the kind ("bytes" or "token ids"). A sample longer than max_tokens + 1 ids is cut
    into pieces of at most that many tokens."""
    files: list[str] = []
    for p in paths:
        if os.path.isdir(p):
            files += sorted(os.path.join(p, f) for f in os.listdir(p)
                            if os.path.isfile(os.path.join(p, f)))
        elif os.path.isfile(p):
            files.append(p)
        else:
            raise UserError(f"{p}: --dataset: no such file or folder")
    if not files:
        raise UserError(f"{', '.join(paths)}: --dataset: the folder has no files")
    samples: list[list[int]] = []
    kinds = set()
    for f in files:
        kind, got = _read_file(f)
        kinds.add(kind)
        samples += got
    if len(kinds) > 1:
        raise UserError(f"{', '.join(paths)}: --dataset mixes JSON token ids and text files")
    if max_tokens is not None:
        samples = [piece for s in samples for piece in _cut(s, max_tokens)]
    samples = [s for s in samples if len(s) >= 2]
    if not samples:
        raise UserError(f"{', '.join(paths)}: --dataset has no sample of two or more tokens")
    return samples, kinds.pop()


def _read_file(path: str) -> tuple[str, list[list[int]]]:
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as e:
        raise UserError(f"{path}: cannot read: {e.strerror}") from None
    if path.endswith(".json"):
        try:
            doc = json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise UserError(f"{path}: not JSON: {e}") from None
        if not isinstance(doc, list):
            raise UserError(f"{path}: $: is not a list of samples (lists of token ids)")
        out = []
        for i, s in enumerate(doc):
            if not isinstance(s, list) or not all(isinstance(t, int) and not isinstance(t, bool)
                                                  and t >= 0 for t in s):
                raise UserError(f"{path}: $[{i}]: is not a list of non-negative token ids")
            out.append(list(s))
        return "token ids", out
    paragraphs = data.replace(b"\r\n", b"\n").split(b"\n\n")
    return "bytes", [list(p.strip(b"\n")) for p in paragraphs if p.strip()]


def _cut(s: list[int], max_tokens: int) -> list[list[int]]:
    # Pieces overlap by one id: a piece's last id is the next piece's first input.
    if len(s) <= max_tokens + 1:
        return [s]
    return [s[i:i + max_tokens + 1] for i in range(0, len(s) - 1, max_tokens)]


def check_vocab(samples: list[list[int]], vocab: int, where: str) -> None:
    top = max(max(s) for s in samples)
    if top >= vocab:
        raise UserError(f"{where}: token id {top} is outside the model's vocabulary of {vocab} "
                        "(setup.model.vocab)")


def iteration_tokens(s: Schedule, samples: list[int], dataset: list[list[int]]) -> dict[str, list[int]]:
    """The ids of every sequence of an iteration's schedule: sequence `sample` k is line k of the
    iteration's length file, i.e. dataset sample samples[k]."""
    out = {}
    for q in s.sequences.values():
        if q.sample is None or not 0 <= q.sample < len(samples):
            raise UserError(f"{s.path}: sequence \"{q.id}\" has no sample index of the iteration")
        ids = dataset[samples[q.sample]]
        if len(ids) != q.length + 1:
            raise UserError(f"{s.path}: sequence \"{q.id}\" has {q.length} tokens, dataset sample "
                            f"{samples[q.sample]} has {len(ids) - 1}")
        out[q.id] = ids
    return out
