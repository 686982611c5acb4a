"""A Llama-style decoder split into stage modules, with weights that depend only on the seed and the
global layer index.

Every rank builds only its own layers, yet a layer's weights are identical wherever it is built
(the single-process reference builds all of them), which is what makes gradients comparable across
a pipeline, replicas and the reference. Attention takes the keys and values of the sequence's
earlier tokens as an argument, so a pack can run a slice of a sequence against the cached context
of the slices before it (slice-level causality).
"""

from __future__ import annotations

import math
import typing
from typing import Optional

import torch
import torch.nn.functional as F
from torch import nn

from torch.nn.attention.bias import causal_lower_right

from .schedule import ModelDims
from .tensor_parallel import (COLUMN, ROW, SINGLE, TensorGroup, copy_to_tensor_group,
                              reduce_from_tensor_group, shard)

ROPE_BASE = 10000.0
NORM_EPS = 1e-5

# Salts of the per-tensor generators: layers use their global index, these are the rest.
_EMBED_SALT = 1_000_001
_HEAD_SALT = 1_000_002


def _generator(seed: int, salt: int) -> torch.Generator:
    g = torch.Generator()
    g.manual_seed((seed * 2_654_435_761 + salt * 40_503 + 12_345) % (2**63 - 1))
    return g


def _normal(shape: tuple[int, ...], std: float, g: torch.Generator, dtype: torch.dtype,
            device: torch.device, dim: Optional[int] = None, tp: TensorGroup = SINGLE) -> nn.Parameter:
    """The whole tensor is drawn (so a layer's weights do not depend on the split), then this
    process's part of it kept (dim: the split dimension under tensor parallelism)."""
    t = torch.randn(shape, generator=g, dtype=torch.float64) * std
    return nn.Parameter(shard(t, dim, tp).to(dtype=dtype, device=device))


def _norm_weight(n: int, g: torch.Generator, dtype: torch.dtype, device: torch.device) -> nn.Parameter:
    # Not all ones: a norm weight of exactly 1 everywhere hides mistakes that permute features.
    t = 1.0 + 0.1 * torch.randn((n,), generator=g, dtype=torch.float64)
    return nn.Parameter(t.to(dtype=dtype, device=device))


def rms_norm(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + NORM_EPS) * w


def rope(x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
    """Rotary embedding of x (tokens, heads, head_dim) at absolute positions (tokens,)."""
    dh = x.shape[-1]
    inv = 1.0 / (ROPE_BASE ** (torch.arange(0, dh, 2, dtype=torch.float64, device=x.device) / dh))
    ang = positions.to(torch.float64)[:, None] * inv[None, :]
    cos = ang.cos().to(x.dtype)[:, None, :]
    sin = ang.sin().to(x.dtype)[:, None, :]
    x1, x2 = x[..., 0::2], x[..., 1::2]
    out = torch.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1)
    return out.flatten(-2)


def causal_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, q_begin: int) -> torch.Tensor:
    """The reference path (`--attention reference`): scores materialised by two einsums.

    q: (n, heads, dh) at positions q_begin..q_begin+n-1; k, v: (q_begin+n, kv_heads, dh) for
    positions 0..q_begin+n-1. Returns (n, heads, dh)."""
    n, heads, dh = q.shape
    m, kv_heads, _ = k.shape
    rep = heads // kv_heads
    if rep > 1:
        k = k.repeat_interleave(rep, dim=1)
        v = v.repeat_interleave(rep, dim=1)
    scores = torch.einsum("nhd,mhd->hnm", q, k) / math.sqrt(dh)
    qpos = torch.arange(q_begin, q_begin + n, device=q.device)[:, None]
    kpos = torch.arange(m, device=q.device)[None, :]
    scores = scores.masked_fill(kpos > qpos, float("-inf"))
    p = torch.softmax(scores, dim=-1)
    return torch.einsum("hnm,mhd->nhd", p, v)


def sdpa_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, q_begin: int) -> torch.Tensor:
    """The fused path (`--attention sdpa`, the default): one call of PyTorch's
    scaled_dot_product_attention, which picks the flash / memory-efficient / cuDNN kernel the
    device has, with grouped K/V heads (enable_gqa, no copies) and the lower-right causal mask:
    the atom's n queries are the *last* n positions of the m keys (its cached prefix first), so
    query i sees keys 0..q_begin+i, exactly `causal_attention`'s mask.

    Same shapes as causal_attention."""
    n = q.shape[0]
    m = k.shape[0]
    qt, kt, vt = q.transpose(0, 1)[None], k.transpose(0, 1)[None], v.transpose(0, 1)[None]
    if n == m:  # no prefix: the ordinary (upper-left = lower-right) causal mask
        out = F.scaled_dot_product_attention(qt, kt, vt, is_causal=True, enable_gqa=True)
    else:
        out = F.scaled_dot_product_attention(qt, kt, vt, attn_mask=causal_lower_right(n, m),
                                             enable_gqa=True)
    return out[0].transpose(0, 1)


ATTENTION = {"sdpa": sdpa_attention, "reference": causal_attention}


class DecoderLayer(nn.Module):
    """Pre-norm block: x + Attn(norm(x)), then + SwiGLU(norm(x)). Under tensor parallelism
    (tensor_parallel.py) this process holds 1/t of the heads and of the MLP's features."""

    SHARDS = {"wq": COLUMN, "wk": COLUMN, "wv": COLUMN, "wo": ROW, "w_gate": COLUMN,
              "w_up": COLUMN, "w_down": ROW, "attn_norm": None, "ffn_norm": None}

    def __init__(self, dims: ModelDims, global_index: int, seed: int, dtype: torch.dtype,
                 device: torch.device, attention: str = "sdpa", tp: TensorGroup = SINGLE):
        super().__init__()
        self.attend = ATTENTION[attention]
        self.tp = tp
        h, f, a, g = dims.hidden, dims.ffn, dims.heads, dims.kv_heads
        self.heads, self.kv_heads, self.head_dim = a // tp.size, g // tp.size, h // a
        gen = _generator(seed, global_index)
        si, sf = 1.0 / math.sqrt(h), 1.0 / math.sqrt(f)
        sh = self.SHARDS
        self.attn_norm = _norm_weight(h, gen, dtype, device)
        self.wq = _normal((h, h), si, gen, dtype, device, sh["wq"], tp)
        self.wk = _normal((g * self.head_dim, h), si, gen, dtype, device, sh["wk"], tp)
        self.wv = _normal((g * self.head_dim, h), si, gen, dtype, device, sh["wv"], tp)
        self.wo = _normal((h, h), si, gen, dtype, device, sh["wo"], tp)
        self.ffn_norm = _norm_weight(h, gen, dtype, device)
        self.w_gate = _normal((f, h), si, gen, dtype, device, sh["w_gate"], tp)
        self.w_up = _normal((f, h), si, gen, dtype, device, sh["w_up"], tp)
        self.w_down = _normal((h, f), sf, gen, dtype, device, sh["w_down"], tp)

    def forward(self, x: torch.Tensor, begin: int, past_k: Optional[torch.Tensor],
                past_v: Optional[torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """x: (n, hidden), the tokens begin..begin+n-1 of one sequence; past_k/past_v: the keys
        and values of tokens 0..begin-1 (None when begin is 0). Returns the output and this
        call's own keys and values (rotated), for the later tokens to attend to."""
        n = x.shape[0]
        pos = torch.arange(begin, begin + n, device=x.device)
        hn = copy_to_tensor_group(rms_norm(x, self.attn_norm), self.tp)
        q = rope((hn @ self.wq.t()).view(n, self.heads, self.head_dim), pos)
        k = rope((hn @ self.wk.t()).view(n, self.kv_heads, self.head_dim), pos)
        v = (hn @ self.wv.t()).view(n, self.kv_heads, self.head_dim)
        k_all = k if past_k is None else torch.cat((past_k, k), dim=0)
        v_all = v if past_v is None else torch.cat((past_v, v), dim=0)
        att = self.attend(q, k_all, v_all, begin).reshape(n, -1)
        x = x + reduce_from_tensor_group(att @ self.wo.t(), self.tp)
        hn = copy_to_tensor_group(rms_norm(x, self.ffn_norm), self.tp)
        mlp = (F.silu(hn @ self.w_gate.t()) * (hn @ self.w_up.t())) @ self.w_down.t()
        return x + reduce_from_tensor_group(mlp, self.tp), k, v


class StageModel(nn.Module):
    """The layers first_layer..first_layer+layers-1, the embedding on the first stage, the final
    norm and LM head on the last. Parameter names are global (`layers.5.wq`, `embed`, `head`), so
    that a rank's gradients can be matched with the reference by name."""

    source = "built-in"

    def __init__(self, dims: ModelDims, first_layer: int, layers: int, is_first: bool,
                 is_last: bool, seed: int, dtype: torch.dtype, device: torch.device,
                 attention: str = "sdpa", tp: TensorGroup = SINGLE):
        super().__init__()
        self.dims = dims
        self.dtype = dtype
        self.first_layer = first_layer
        self.layers = nn.ModuleDict({str(first_layer + i): DecoderLayer(
            dims, first_layer + i, seed, dtype, device, attention, tp) for i in range(layers)})
        self.embed: Optional[nn.Parameter] = None
        self.final_norm: Optional[nn.Parameter] = None
        self.head: Optional[nn.Parameter] = None
        if is_first:
            self.embed = _normal((dims.vocab, dims.hidden), 1.0, _generator(seed, _EMBED_SALT),
                                 dtype, device)
        if is_last:
            g = _generator(seed, _HEAD_SALT)
            self.final_norm = _norm_weight(dims.hidden, g, dtype, device)
            self.head = _normal((dims.vocab, dims.hidden), 1.0 / math.sqrt(dims.hidden), g, dtype,
                                device)

    def shard_dims(self) -> dict[str, Optional[int]]:
        """Split dimension of every parameter under tensor parallelism (None: replicated)."""
        return {name: DecoderLayer.SHARDS.get(name.rsplit(".", 1)[-1])
                for name, _ in self.named_parameters()}

    def tied_names(self) -> list[str]:
        return []  # the built-in model's embedding and LM head are separate

    def layer_list(self) -> list[DecoderLayer]:
        return [typing.cast(DecoderLayer, self.layers[str(self.first_layer + i)])
                for i in range(len(self.layers))]

    def embed_tokens(self, ids: torch.Tensor) -> torch.Tensor:
        assert self.embed is not None
        return F.embedding(ids, self.embed)

    def loss(self, x: torch.Tensor, targets: torch.Tensor, divisor: int) -> torch.Tensor:
        """Sum of next-token cross entropy over the rows of x, divided by the iteration's token
        count (a constant), so that the losses of all packs and replicas add up to the mean."""
        assert self.final_norm is not None and self.head is not None
        logits = rms_norm(x, self.final_norm) @ self.head.t()
        return F.cross_entropy(logits, targets, reduction="sum") / divisor

    def sequence_loss(self, ids: torch.Tensor, divisor: int) -> torch.Tensor:
        """The whole model on one whole sequence (the single-process reference's step)."""
        h = self.embed_tokens(ids[:-1])
        for layer in self.layer_list():
            h, _, _ = layer(h, 0, None, None)
        return self.loss(h, ids[1:], divisor)


def full_model(dims: ModelDims, seed: int, dtype: torch.dtype,
               device: torch.device = torch.device("cpu"), attention: str = "reference") -> StageModel:
    """The whole model in one module (the single-process reference). Its attention is the
    reference path by default, so `--check` of an sdpa run also checks the fused kernel."""
    return StageModel(dims, 0, dims.layers, True, True, seed, dtype, device, attention)
