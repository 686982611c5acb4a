"""What this runtime can run: every refusal is decided here, up front, before any process starts.

A schedule the runtime cannot execute exactly is refused with one message that names the field and
the unsupported part (exit 2), instead of starting ranks that would fail or, worse, compute
something else. The list matches docs/runtime.md's "What is refused".
"""

from __future__ import annotations

import os

from .schedule import Schedule

SCHEDULES = ("1f1b", "gpipe")


def check_supported(s: Schedule, device: str, dtype_bytes: int, builtin: bool = True) -> None:
    """Raises UserError for the first part of `s` this runtime cannot execute on `device`.
    `builtin`: the run builds the built-in model from setup.model (not --hf-model, whose config
    hf_config.check_against_schedule checks)."""
    st = s.setup
    if st.cp > 1:
        raise s.error("$.setup.cp", f"context parallelism (cp = {st.cp}) is not supported by "
                      "slimpack-run: solve the plan with --cp 1")
    if st.schedule not in SCHEDULES:
        raise s.error("$.setup.schedule", f'schedule "{st.schedule}" is not supported by '
                      f"slimpack-run (it runs {' and '.join(SCHEDULES)})")
    m = st.model
    if m is None:
        raise s.error("$.setup.model", "the schedule has no model (a plan with explicit times): "
                      "slimpack-run needs the model's dimensions; solve with --model or --costs")
    if builtin and (m.tied_embeddings or m.attention_bias not in ("none", "false")):
        what = "tied embeddings" if m.tied_embeddings else f"attention bias ({m.attention_bias})"
        raise s.error("$.setup.model", f"model \"{m.name}\" has {what}, which the built-in model "
                      "does not: run it with --hf-model (its config.json)")
    if builtin and m.head_dim is not None and m.head_dim * m.heads != m.hidden:
        raise s.error("$.setup.model.head_dim", f"{m.head_dim} x {m.heads} heads is not hidden "
                      f"{m.hidden}: the built-in model has head_dim = hidden / heads (run such a "
                      "model with --hf-model)")
    if st.tp > 1:
        for field, n in (("heads", m.heads), ("kv_heads", m.kv_heads), ("ffn", m.ffn)):
            if n % st.tp:
                raise s.error(f"$.setup.model.{field}", f"{n} is not divisible by tp = {st.tp} "
                              "(tensor parallelism splits heads and MLP features evenly)")
    if m.hidden % m.heads:
        raise s.error("$.setup.model.heads", f"hidden {m.hidden} is not divisible by "
                      f"{m.heads} heads")
    if m.heads % m.kv_heads:
        raise s.error("$.setup.model.kv_heads", f"{m.heads} heads are not divisible by "
                      f"{m.kv_heads} K/V heads")
    if (m.hidden // m.heads) % 2:
        raise s.error("$.setup.model.heads", f"head dimension {m.hidden // m.heads} is odd "
                      "(rotary embeddings need an even one)")
    for r, rep in enumerate(s.replicas):
        for kind, packs in (("forward_packs", rep.forward_packs),
                            ("backward_packs", rep.backward_packs)):
            for k, p in enumerate(packs):
                for j, seg in enumerate(p.segments):
                    if seg.shards > 1:
                        raise s.error(f"$.replicas[{r}].{kind}[{k}].segments[{j}].shards",
                                      "DP-Merge shards are not supported by slimpack-run: "
                                      "solve with --no-dp-merge")
    if device == "cpu":
        need = parameter_bytes(s, dtype_bytes) * st.replicas  # tp splits, does not add
        avail = _available_memory()
        if avail and need * 3 > avail:  # weights, gradients and headroom for activations
            raise s.error("$.setup.model", f"model \"{m.name}\" needs about "
                          f"{need * 3 / 2**30:.1f} GiB for weights and gradients on {st.replicas}"
                          f" replica(s), more than the {avail / 2**30:.1f} GiB available: run it "
                          "on GPUs or solve the plan for a smaller model (--costs FILE)")


def parameter_bytes(s: Schedule, dtype_bytes: int) -> int:
    """Parameters of one replica of the model, in bytes (weights only)."""
    m = s.setup.model
    assert m is not None
    dh = m.hidden // m.heads
    per_layer = (m.hidden * m.hidden * 2 + 2 * m.hidden * m.kv_heads * dh + 3 * m.hidden * m.ffn
                 + 2 * m.hidden)
    return (per_layer * m.layers + 2 * m.vocab * m.hidden + m.hidden) * dtype_bytes


def _available_memory() -> int:
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def device_problem(device: str) -> str | None:
    """Why `device` cannot be used here, or None."""
    if device == "cpu":
        return None
    import torch

    if not torch.cuda.is_available():
        return "--device cuda: no CUDA device is visible to PyTorch"
    if not torch.distributed.is_nccl_available():
        return "--device cuda: this PyTorch build has no NCCL"
    return None


def world_problem(s: Schedule, device: str) -> str | None:
    if device == "cuda":
        import torch

        n = torch.cuda.device_count()
        if s.processes() > n:
            return (f"{s.path}: the schedule has {s.processes()} processes, only {n} CUDA device(s) "
                    "are visible (one process per GPU)")
    elif s.processes() > 4 * (os.cpu_count() or 1) and s.processes() > 64:
        return (f"{s.path}: {s.processes()} processes are too many for "
                f"{os.cpu_count()} CPU cores")
    return None
