"""`--hf-model`: transformers' own model (Llama, Mistral, Qwen2) under a SlimPack schedule.

Nothing of the model is copied or patched. Each rank asks transformers for the model on the meta
device, keeps its own decoder layers (the others become nn.Identity, so parameter names stay
transformers' global ones: `model.layers.5.self_attn.q_proj.weight`), and materialises only those.
The engine calls each kept `*DecoderLayer` on one atom at a time, with the rotary embedding of the
atom's absolute positions (the model's own rotary module), and the attention goes through
transformers' attention interface: `slimpack_attention`, registered under the name "slimpack",
reads the atom's context (the cached keys and values of the sequence's earlier atoms) from a
keyword argument that transformers passes through the layer to the attention function, and keeps
this atom's keys and values for the atoms after it: slice-level causality, exactly as the built-in
model does it.

The single-process reference (`--check`) is the same transformers class, built whole, with
transformers' own SDPA attention (its eager path computes the softmax in float32, which a
float64 check would measure instead of the plan) and its own forward over whole sequences.

Weights are random (each tensor drawn from --seed and its name, so every rank and the reference
agree) or read from the checkpoint folder's safetensors (only the tensors this rank holds). Tied
embeddings (`tie_word_embeddings`) with more than one stage: the last stage holds a copy of the
embedding as its LM head under the embedding's name, and the runner sums the two gradients after
every iteration (as Megatron-LM does), so both copies take the same optimizer step.
"""

from __future__ import annotations

import zlib
from typing import Any, Optional

import torch
import transformers  # noqa: F401 (here, so that the spawn launcher's fork server imports it once)
from torch import nn
from torch.nn import functional as F

from .hf_config import HFModelSpec, weight_files
from .model import ATTENTION
from .tensor_parallel import COLUMN, ROW, SINGLE, RowParallelLinear, TensorGroup, \
    copy_to_tensor_group, shard

ATTN_NAME = "slimpack"
EMBED = "model.embed_tokens.weight"
HEAD = "lm_head.weight"


class AtomContext:
    """One layer call on one atom: the earlier atoms' keys/values in, this atom's out."""

    __slots__ = ("begin", "past_k", "past_v", "k", "v", "attend")

    def __init__(self, begin: int, past_k: Optional[torch.Tensor], past_v: Optional[torch.Tensor],
                 attend):
        self.begin, self.past_k, self.past_v, self.attend = begin, past_k, past_v, attend
        self.k: Optional[torch.Tensor] = None
        self.v: Optional[torch.Tensor] = None


def slimpack_attention(module: nn.Module, query: torch.Tensor, key: torch.Tensor,
                       value: torch.Tensor, attention_mask: Optional[torch.Tensor],
                       scaling: Optional[float] = None, dropout: float = 0.0,
                       slimpack_atom: Optional[AtomContext] = None,
                       **kwargs: Any) -> tuple[torch.Tensor, None]:
    """transformers' attention-interface signature: query (1, heads, n, d), key/value
    (1, kv_heads, n, d), rotated; returns (1, n, heads, d)."""
    c = slimpack_atom
    if c is None:
        raise RuntimeError("slimpack attention called outside a SlimPack atom (the model must "
                           "be run by slimpack-run's engine)")
    d = query.shape[-1]
    if scaling is not None and abs(scaling - d ** -0.5) > 1e-12 * d ** -0.5:
        raise RuntimeError(f"attention scaling {scaling} is not 1/sqrt(head_dim)")
    q = query[0].transpose(0, 1)
    k = key[0].transpose(0, 1)
    v = value[0].transpose(0, 1)
    c.k, c.v = k, v
    k_all = k if c.past_k is None else torch.cat((c.past_k, k), dim=0)
    v_all = v if c.past_v is None else torch.cat((c.past_v, v), dim=0)
    return c.attend(q, k_all, v_all, c.begin)[None], None


_registered = False


def _register() -> None:
    global _registered
    if not _registered:
        from transformers import AttentionInterface

        AttentionInterface.register(ATTN_NAME, slimpack_attention)
        _registered = True


def _config(spec: HFModelSpec, attn: str):
    from transformers import AutoConfig

    d = dict(spec.config)
    mt = d.pop("model_type")
    for k in ("architectures", "transformers_version", "torch_dtype", "dtype", "auto_map"):
        d.pop(k, None)
    cfg = AutoConfig.for_model(mt, **d)
    cfg._attn_implementation = attn
    return cfg


def _build_meta(spec: HFModelSpec, attn: str, dtype: torch.dtype):
    from transformers import AutoModelForCausalLM

    _register()
    cfg = _config(spec, attn)
    with torch.device("meta"):
        model = AutoModelForCausalLM.from_config(cfg, attn_implementation=attn, dtype=dtype)
    return cfg, model


def random_tensor(seed: int, name: str, shape: tuple[int, ...], std: float) -> torch.Tensor:
    """The whole tensor `name` of the random model: a function of the seed and the name only."""
    g = torch.Generator()
    g.manual_seed((seed * 2_654_435_761 + zlib.crc32(name.encode()) * 40_503 + 7) % (2**63 - 1))
    if name.endswith("norm.weight"):
        # Not all ones: a norm weight of exactly 1 everywhere hides mistakes that permute features.
        return 1.0 + 0.1 * torch.randn(shape, generator=g, dtype=torch.float64)
    return torch.randn(shape, generator=g, dtype=torch.float64) * std


class WeightSource:
    """Whole tensors by transformers' name: from the checkpoint folder, or random."""

    def __init__(self, spec: HFModelSpec, seed: int):
        self.spec, self.seed = spec, seed
        self.files = weight_files(spec.weights_dir) if spec.weights_dir else None
        self.std = float(spec.value("initializer_range", 0.02))

    def get(self, name: str, shape: tuple[int, ...]) -> torch.Tensor:
        if self.files is None:
            return random_tensor(self.seed, name, shape, self.std)
        from safetensors import safe_open

        key = name if name in self.files or not (name == HEAD and self.spec.tied) else EMBED
        with safe_open(self.files[key], framework="pt") as f:
            return f.get_tensor(key)


def _shard_dim(name: str) -> Optional[int]:
    """Split dimension of transformers' parameter `name` under tensor parallelism."""
    leaf = name.split(".")
    if len(leaf) < 3 or leaf[-3] not in ("self_attn", "mlp"):
        return None  # embedding, norms, LM head: replicated
    proj, kind = leaf[-2], leaf[-1]
    if proj in ("q_proj", "k_proj", "v_proj", "gate_proj", "up_proj"):
        return COLUMN
    if proj in ("o_proj", "down_proj"):
        return ROW if kind == "weight" else None  # the row-parallel bias is added once
    return None


class HFLayerCall:
    """The engine's layer interface, `(x, begin, past_k, past_v) -> (x, k, v)`, over one of
    transformers' decoder layers."""

    def __init__(self, layer: nn.Module, rotary: nn.Module, attend):
        self.layer, self.rotary, self.attend = layer, rotary, attend

    def __call__(self, x: torch.Tensor, begin: int, past_k: Optional[torch.Tensor],
                 past_v: Optional[torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        n = x.shape[0]
        pos = torch.arange(begin, begin + n, device=x.device)[None]
        h = x[None]
        ctx = AtomContext(begin, past_k, past_v, self.attend)
        out = self.layer(h, attention_mask=None, position_ids=pos,
                         position_embeddings=self.rotary(h, pos), slimpack_atom=ctx)
        if isinstance(out, tuple):  # older transformers return (hidden_states,)
            out = out[0]
        assert ctx.k is not None and ctx.v is not None
        return out[0], ctx.k, ctx.v


class HFStageModel:
    """A stage of transformers' model, with the interface of model.StageModel."""

    source = "transformers"

    def __init__(self, spec: HFModelSpec, first_layer: int, layers: int, is_first: bool,
                 is_last: bool, seed: int, dtype: torch.dtype, device: torch.device,
                 attention: str = "sdpa", tp: TensorGroup = SINGLE):
        self.spec, self.dtype, self.first_layer, self.tp = spec, dtype, first_layer, tp
        cfg, model = _build_meta(spec, ATTN_NAME, dtype)
        self.hf = model
        inner = model.model
        owned = range(first_layer, first_layer + layers)
        for i in range(len(inner.layers)):
            if i not in owned:
                inner.layers[i] = nn.Identity()
        if not is_first:
            inner.embed_tokens = None
        if not is_last:
            inner.norm = None
            model.lm_head = None
        model.to_empty(device=device)
        if tp.size > 1:
            for i in owned:
                _split_layer(inner.layers[i], tp)
        # Fresh rotary buffers: to_empty left the meta model's inv_freq uninitialised.
        inner.rotary_emb = type(inner.rotary_emb)(config=cfg).to(device)
        tied = spec.tied
        if tied and is_first and is_last:
            model.lm_head.weight = inner.embed_tokens.weight
        self._names: dict[str, nn.Parameter] = {}
        for name, p in model.named_parameters(remove_duplicate=True):
            self._names[EMBED if (tied and name == HEAD) else name] = p
        src = WeightSource(spec, seed)
        with torch.no_grad():
            for name, p in self._names.items():
                dim = _shard_dim(name)
                full_shape = tuple(p.shape) if dim is None else tuple(
                    s * tp.size if i == dim else s for i, s in enumerate(p.shape))
                w = src.get(name, full_shape)
                if tuple(w.shape) != full_shape:  # checked up front; a folder changed since
                    raise RuntimeError(f"{name}: shape {list(w.shape)} in the weights, "
                                       f"{list(full_shape)} in the model")
                p.copy_(shard(w, dim, tp).to(dtype))
        model.train()
        self._tied_copy = tied and is_first != is_last  # one of the two stages holding it
        attend = ATTENTION[attention]
        self._layers = [HFLayerCall(inner.layers[i], inner.rotary_emb, attend) for i in owned]
        self._embed = inner.embed_tokens
        self._norm = inner.norm
        self._head = model.lm_head

    # ----- the StageModel interface -------------------------------------------------------

    def named_parameters(self):
        return iter(self._names.items())

    def parameters(self):
        return iter(self._names.values())

    def shard_dims(self) -> dict[str, Optional[int]]:
        return {name: _shard_dim(name) for name in self._names}

    def tied_names(self) -> list[str]:
        """Parameters of which another stage holds a copy: on the first and the last stage, whose
        gradients are summed after each iteration."""
        return [EMBED] if self._tied_copy else []

    def layer_list(self) -> list[HFLayerCall]:
        return self._layers

    def embed_tokens(self, ids: torch.Tensor) -> torch.Tensor:
        assert self._embed is not None
        return self._embed(ids)

    def loss(self, x: torch.Tensor, targets: torch.Tensor, divisor: int) -> torch.Tensor:
        """Next-token cross entropy summed over the rows, divided by the iteration's token count.
        Computed here rather than by transformers' loss_function, which casts logits to float32
        (a float64 check would then measure float32 rounding)."""
        assert self._norm is not None and self._head is not None
        logits = self._head(self._norm(x))
        return F.cross_entropy(logits, targets, reduction="sum") / divisor


def _split_layer(layer: nn.Module, tp: TensorGroup) -> None:
    """Tensor parallelism on one materialised (still uninitialised) decoder layer: the column-
    parallel projections become 1/t as wide, the row-parallel ones RowParallelLinear, and the
    attention block's and MLP's inputs pass through Megatron's f (copy_to_tensor_group)."""
    attn: nn.Module = layer.self_attn  # type: ignore[assignment]
    mlp: nn.Module = layer.mlp  # type: ignore[assignment]
    for block, cols, rows in ((attn, ("q_proj", "k_proj", "v_proj"), ("o_proj",)),
                              (mlp, ("gate_proj", "up_proj"), ("down_proj",))):
        for name in cols:
            lin = getattr(block, name)
            out = lin.out_features // tp.size
            setattr(block, name, nn.Linear(lin.in_features, out, bias=lin.bias is not None,
                                           device=lin.weight.device, dtype=lin.weight.dtype))
        for name in rows:
            lin = getattr(block, name)
            w = torch.empty((lin.out_features, lin.in_features // tp.size),
                            device=lin.weight.device, dtype=lin.weight.dtype)
            b = None if lin.bias is None else torch.empty_like(lin.bias)
            setattr(block, name, RowParallelLinear(w, b, tp))
    attn.register_forward_pre_hook(_copy_input(tp), with_kwargs=True)
    mlp.register_forward_pre_hook(_copy_input(tp), with_kwargs=True)


def _copy_input(tp: TensorGroup):
    """A pre-hook passing the block's input (`hidden_states`, by keyword or first) through f."""
    def hook(module: nn.Module, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
        if "hidden_states" in kwargs:
            kwargs["hidden_states"] = copy_to_tensor_group(kwargs["hidden_states"], tp)
        else:
            args = (copy_to_tensor_group(args[0], tp),) + tuple(args[1:])
        return args, kwargs
    return hook


class HFReferenceModel:
    """The whole transformers model with its own SDPA attention: the single-process
    reference of a --check, with the interface reference.py uses."""

    source = "transformers"

    def __init__(self, spec: HFModelSpec, seed: int, dtype: torch.dtype):
        from transformers import AutoModelForCausalLM

        cfg = _config(spec, "sdpa")
        with torch.device("meta"):
            model = AutoModelForCausalLM.from_config(cfg, attn_implementation="sdpa",
                                                     dtype=dtype)
        model.to_empty(device="cpu")
        model.model.rotary_emb = type(model.model.rotary_emb)(config=cfg)
        if spec.tied:
            model.lm_head.weight = model.model.embed_tokens.weight
        src = WeightSource(spec, seed)
        with torch.no_grad():
            for name, p in model.named_parameters():
                p.copy_(src.get(name, tuple(p.shape)).to(dtype))
        model.train()
        self.hf = model
        self.class_name = type(model).__name__

    def named_parameters(self):
        return self.hf.named_parameters()

    def parameters(self):
        return self.hf.parameters()

    def zero_grad(self, set_to_none: bool = True) -> None:
        self.hf.zero_grad(set_to_none=set_to_none)

    def sequence_loss(self, ids: torch.Tensor, divisor: int) -> torch.Tensor:
        """transformers' forward of the whole sequence (its SDPA attention, its causal mask,
        its rotary positions), then the summed next-token cross entropy / divisor."""
        logits = self.hf(input_ids=ids[:-1][None]).logits[0]
        return F.cross_entropy(logits, ids[1:], reduction="sum") / divisor
