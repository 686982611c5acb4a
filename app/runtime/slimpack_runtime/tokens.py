"""Deterministic token ids per sequence, the same on every rank and in the reference.

A sequence of length n gets n + 1 ids: positions 0..n-1 are its input and 1..n its next-token
targets, so every token has a target and the loss divisor is simply the iteration's token count.
The ids depend on the seed and the sequence's dataset sample index (or, without one, its id), not on
how the plan cut it, so every plan of the same batch trains on the same data.
"""

from __future__ import annotations

import zlib

import torch

from .schedule import Sequence


def sequence_key(seq: Sequence) -> int:
    if seq.sample is not None:
        return seq.sample
    return 1_000_000_007 + zlib.crc32(seq.id.encode("utf-8"))


def token_ids(seq: Sequence, vocab: int, seed: int) -> torch.Tensor:
    """(length + 1,) int64 ids: inputs are [:-1], targets [1:]."""
    g = torch.Generator()
    g.manual_seed((seed * 1_000_003 + sequence_key(seq) * 7_919 + 1) % (2**63 - 1))
    return torch.randint(0, vocab, (seq.length + 1,), generator=g, dtype=torch.int64)
