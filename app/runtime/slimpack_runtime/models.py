"""Which model a run builds: the built-in Llama-style decoder (model.py), or transformers' own
model from a config (hf_model.py, `--hf-model`). Both offer the same interface to the engine,
the runner and the reference, so nothing else needs to know which one runs."""

from __future__ import annotations

from typing import Optional

import torch

from .hf_config import HFModelSpec
from .model import StageModel, full_model
from .schedule import Rank, Schedule
from .tensor_parallel import SINGLE, TensorGroup

def build_stage_model(hf: Optional[HFModelSpec], s: Schedule, rk: Rank, seed: int,
                      dtype: torch.dtype, device: torch.device, attention: str,
                      tp: TensorGroup = SINGLE):
    first, last = rk.stage == 0, rk.stage == s.setup.stages - 1
    if hf is not None:
        from .hf_model import HFStageModel

        return HFStageModel(hf, rk.first_layer, rk.layers, first, last, seed, dtype, device,
                            attention, tp)
    assert s.setup.model is not None
    return StageModel(s.setup.model, rk.first_layer, rk.layers, first, last, seed, dtype, device,
                      attention, tp)


def build_reference_model(hf: Optional[HFModelSpec], s: Schedule, seed: int, dtype: torch.dtype):
    """The whole model in one process: the built-in one with the reference attention, or
    transformers' with its own SDPA attention."""
    if hf is not None:
        from .hf_model import HFReferenceModel

        return HFReferenceModel(hf, seed, dtype)
    assert s.setup.model is not None
    return full_model(s.setup.model, seed, dtype)


def reference_name(hf: Optional[HFModelSpec]) -> str:
    if hf is None:
        return "the built-in model (reference attention)"
    arch = (hf.config.get("architectures") or [f"{hf.model_type} ForCausalLM"])[0]
    return f"transformers' {arch} forward and backward (its SDPA attention)"
