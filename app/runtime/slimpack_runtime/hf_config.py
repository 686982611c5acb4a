"""`--hf-model FILE_OR_DIR`: a Hugging Face model description, read and checked before any rank
starts, without importing torch or transformers (the coordinator only validates).

What is accepted is what the runtime executes exactly: decoder-only models of the Llama, Mistral
and Qwen2 families (`model_type`), SiLU MLPs, no attention dropout, and no sliding window shorter
than the schedule's longest sequence (a window at least that long never masks anything). A folder
may hold weights (`model.safetensors`, or shards listed in `model.safetensors.index.json`); their
names and shapes are checked against the config here, their values are read by each rank.
"""

from __future__ import annotations

import json
import os
import struct
from dataclasses import dataclass
from typing import Any, Optional

from .errors import UserError
from .schedule import Schedule

FAMILIES = ("llama", "mistral", "qwen2")
REQUIRED = ("hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads",
            "vocab_size")
WEIGHTS = "model.safetensors"
WEIGHTS_INDEX = "model.safetensors.index.json"


@dataclass(frozen=True)
class HFModelSpec:
    """What every rank needs to build its part of the model: the config as read (rank 0's bytes,
    so all ranks build the same model) and the folder of the weights, if any."""

    path: str  # as the user gave it, for messages and the summary
    config: dict[str, Any]
    weights_dir: Optional[str] = None  # None: random weights from --seed

    @property
    def model_type(self) -> str:
        return str(self.config["model_type"])

    def value(self, key: str, default: Any = None) -> Any:
        v = self.config.get(key)
        return default if v is None else v

    @property
    def heads(self) -> int:
        return int(self.config["num_attention_heads"])

    @property
    def kv_heads(self) -> int:
        """K/V heads; absent, transformers' default of the family (Mistral 8, Qwen2 32), and a
        null one the attention heads, as transformers builds them."""
        if "num_key_value_heads" not in self.config:
            return {"mistral": 8, "qwen2": 32}.get(self.model_type, self.heads)
        return int(self.value("num_key_value_heads", self.heads))

    @property
    def head_dim(self) -> int:
        return int(self.value("head_dim", int(self.config["hidden_size"]) // self.heads))

    @property
    def tied(self) -> bool:
        return bool(self.value("tie_word_embeddings", False))

    @property
    def has_attention_bias(self) -> bool:
        return self.model_type == "qwen2" or bool(self.value("attention_bias", False))

    def sliding_window(self) -> Optional[int]:
        """The window the model would apply, None when it attends to the whole sequence."""
        if self.model_type == "mistral":
            w = self.config.get("sliding_window", 4096)  # transformers' MistralConfig default
            return None if w is None else int(w)
        if self.model_type == "qwen2" and self.config.get("use_sliding_window"):
            w = self.config.get("sliding_window", 4096)
            return None if w is None else int(w)
        return None

    def describe(self) -> str:
        return (f"{self.model_type} from {self.path}"
                + (f" (weights in {self.weights_dir})" if self.weights_dir else " (random weights)"))


def load_hf_model_spec(path: str) -> HFModelSpec:
    """Reads FILE (a config.json) or DIR (with config.json, maybe weights); UserError names the
    file and the field of the first problem."""
    if os.path.isdir(path):
        cfg_path = os.path.join(path, "config.json")
        weights_dir: Optional[str] = path if _has_weights(path) else None
    else:
        cfg_path, weights_dir = path, None
    try:
        with open(cfg_path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise UserError(f"{cfg_path}: cannot read the model config: {e.strerror}") from None
    try:
        doc = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as e:
        raise UserError(f"{cfg_path}: not a JSON config ({e})") from None
    if not isinstance(doc, dict):
        raise UserError(f"{cfg_path}: not a JSON object")
    spec = HFModelSpec(path, doc, weights_dir)
    _check_config(cfg_path, spec)
    return spec


def _has_weights(folder: str) -> bool:
    return any(os.path.exists(os.path.join(folder, n)) for n in (WEIGHTS, WEIGHTS_INDEX))


def _check_config(where: str, spec: HFModelSpec) -> None:
    c = spec.config
    mt = c.get("model_type")
    if mt is None:
        raise UserError(f"{where}: model_type: missing")
    if mt not in FAMILIES:
        raise UserError(f"{where}: model_type: \"{mt}\" is not supported (slimpack-run runs "
                        f"{', '.join(FAMILIES)})")
    for key in REQUIRED:
        v = c.get(key)
        if v is None:
            raise UserError(f"{where}: {key}: missing")
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise UserError(f"{where}: {key}: must be a positive integer (got {json.dumps(v)})")
    for key in ("num_key_value_heads", "head_dim"):
        v = c.get(key)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 1):
            raise UserError(f"{where}: {key}: must be a positive integer (got {json.dumps(v)})")
    if spec.heads % spec.kv_heads:
        raise UserError(f"{where}: num_key_value_heads: {spec.heads} attention heads are not "
                        f"divisible by {spec.kv_heads} K/V heads")
    if spec.head_dim % 2:
        raise UserError(f"{where}: head_dim: {spec.head_dim} is odd (rotary embeddings need an "
                        "even one)")
    act = c.get("hidden_act", "silu")
    if act != "silu":
        raise UserError(f"{where}: hidden_act: \"{act}\" is not supported (the planner models "
                        "a SiLU-gated MLP)")
    drop = c.get("attention_dropout", 0.0) or 0.0
    if drop != 0:
        raise UserError(f"{where}: attention_dropout: {drop} is not supported (a checked run "
                        "must be deterministic; set it to 0)")
    if c.get("architectures") and not any(str(a).endswith("ForCausalLM")
                                          for a in c["architectures"]):
        raise UserError(f"{where}: architectures: {c['architectures']} has no *ForCausalLM "
                        "(slimpack-run trains a causal language model)")


def check_against_schedule(spec: HFModelSpec, s: Schedule) -> None:
    """The schedule must have been planned for this model: its setup.model's dimensions equal the
    config's, and no sequence is longer than a sliding window."""
    m = s.setup.model
    if m is None:
        raise s.error("$.setup.model", "the schedule has no model; solve it with "
                      f"--hf-config {spec.path}")
    pairs = (("layers", "num_hidden_layers", spec.config["num_hidden_layers"]),
             ("hidden", "hidden_size", spec.config["hidden_size"]),
             ("ffn", "intermediate_size", spec.config["intermediate_size"]),
             ("heads", "num_attention_heads", spec.heads),
             ("kv_heads", "num_key_value_heads", spec.kv_heads),
             ("vocab", "vocab_size", spec.config["vocab_size"]))
    for field, key, want in pairs:
        got = getattr(m, field)
        if got != want:
            raise s.error(f"$.setup.model.{field}", f"{got} differs from {key} = {want} of "
                          f"{spec.path}: solve the plan with --hf-config {spec.path}")
    if m.head_dim is not None and m.head_dim != spec.head_dim:
        raise s.error("$.setup.model.head_dim", f"{m.head_dim} differs from head_dim = "
                      f"{spec.head_dim} of {spec.path}")
    window = spec.sliding_window()
    longest = max((q.length for q in s.sequences.values()), default=0)
    if window is not None and longest > window:
        raise UserError(f"{spec.path}: sliding_window: {window} is shorter than the schedule's "
                        f"longest sequence ({longest} tokens); slimpack-run does not model a "
                        "sliding window")
    tp = s.setup.tp
    if tp > 1:
        for key, n in (("num_attention_heads", spec.heads),
                       ("num_key_value_heads", spec.kv_heads),
                       ("intermediate_size", int(spec.config["intermediate_size"]))):
            if n % tp:
                raise UserError(f"{spec.path}: {key}: {n} is not divisible by the schedule's "
                                f"tp = {tp}")


def expected_shapes(spec: HFModelSpec) -> dict[str, tuple[int, ...]]:
    """Every parameter of the whole model by transformers' name, with its shape (what a
    checkpoint folder must hold; `lm_head.weight` may be absent when the embeddings are tied)."""
    c = spec.config
    h, f, v = int(c["hidden_size"]), int(c["intermediate_size"]), int(c["vocab_size"])
    q, kv = spec.heads * spec.head_dim, spec.kv_heads * spec.head_dim
    out: dict[str, tuple[int, ...]] = {"model.embed_tokens.weight": (v, h),
                                       "model.norm.weight": (h,)}
    if not spec.tied:
        out["lm_head.weight"] = (v, h)
    bias = spec.has_attention_bias
    o_bias = spec.model_type == "llama" and bias
    for i in range(int(c["num_hidden_layers"])):
        p = f"model.layers.{i}."
        out.update({p + "self_attn.q_proj.weight": (q, h), p + "self_attn.k_proj.weight": (kv, h),
                    p + "self_attn.v_proj.weight": (kv, h), p + "self_attn.o_proj.weight": (h, q),
                    p + "mlp.gate_proj.weight": (f, h), p + "mlp.up_proj.weight": (f, h),
                    p + "mlp.down_proj.weight": (h, f), p + "input_layernorm.weight": (h,),
                    p + "post_attention_layernorm.weight": (h,)})
        if bias:
            out.update({p + "self_attn.q_proj.bias": (q,), p + "self_attn.k_proj.bias": (kv,),
                        p + "self_attn.v_proj.bias": (kv,)})
        if o_bias:
            out[p + "self_attn.o_proj.bias"] = (h,)
    return out


def weight_files(folder: str) -> dict[str, str]:
    """Tensor name -> the safetensors file holding it."""
    index = os.path.join(folder, WEIGHTS_INDEX)
    if os.path.exists(index):
        try:
            with open(index, encoding="utf-8") as f:
                wm = json.load(f)["weight_map"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise UserError(f"{index}: not a safetensors index ({e})") from None
        return {str(k): os.path.join(folder, str(v)) for k, v in wm.items()}
    path = os.path.join(folder, WEIGHTS)
    return {name: path for name in _safetensors_header(path)}


def _safetensors_header(path: str) -> dict[str, Any]:
    """The header of a safetensors file (names, dtypes, shapes), read without the data."""
    try:
        with open(path, "rb") as f:
            n = struct.unpack("<Q", f.read(8))[0]
            if n > 100 * 2**20:
                raise ValueError(f"header of {n} bytes")
            head = json.loads(f.read(n))
    except (OSError, ValueError, struct.error) as e:
        raise UserError(f"{path}: not a safetensors file ({e})") from None
    head.pop("__metadata__", None)
    return head


def check_weights(spec: HFModelSpec) -> None:
    """The folder's tensors are exactly the config's parameters with the config's shapes."""
    if spec.weights_dir is None:
        return
    want = expected_shapes(spec)
    files = weight_files(spec.weights_dir)
    headers: dict[str, dict[str, Any]] = {}
    for name in sorted(files):
        if name not in want and not (name == "lm_head.weight" and spec.tied):
            raise UserError(f"{files[name]}: {name}: not a parameter of the {spec.model_type} "
                            f"model {spec.path} describes (do the weights match the config?)")
    for name, shape in want.items():
        if name not in files:
            raise UserError(f"{spec.weights_dir}: {name}: missing from the weights (do the "
                            "weights match the config?)")
        path = files[name]
        if path not in headers:
            headers[path] = _safetensors_header(path)
        entry = headers[path].get(name)
        if not isinstance(entry, dict):
            raise UserError(f"{path}: {name}: missing (the index names this file)")
        got = tuple(entry.get("shape", ()))
        if got != shape:
            raise UserError(f"{path}: {name}: shape {list(got)} differs from {list(shape)} of "
                            f"the config (do the weights match the config?)")
