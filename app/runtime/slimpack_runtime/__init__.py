"""slimpack_runtime: executes SlimPack schedules with PyTorch (docs/runtime.md).

It executes a schedule that `slimpack solve --schedule-out` wrote, action by action, one process
per (replica, stage) rank, so that a plan the explorer shows can be run, trained with and checked
against a single-process run: asymmetric forward and backward packs, slices of a sequence across
packs, drains, recompute and data-parallel replicas, which no other pipeline runtime can express.

The public names below are stable; everything else is the runtime's own.
"""

__version__ = "0.2.0"
MIN_TORCH = "2.5"  # scaled_dot_product_attention(enable_gqa=...), causal_lower_right

__all__ = [
    "__version__", "ActionKind", "Schedule", "load_schedule", "parse_schedule_text",
    "validate_schedule", "run_local", "main", "SlimPackSampler", "TokenRangeDataset",
    "collate_pack", "sdpa_attention", "causal_attention", "UserError", "RunError",
]


def __getattr__(name: str):
    # Lazy: `import slimpack_runtime` (and `--version`) must work before torch is importable.
    if name in ("ActionKind", "Schedule", "load_schedule", "parse_schedule_text"):
        from . import schedule

        return getattr(schedule, name)
    if name == "validate_schedule":
        from .validate import validate_schedule

        return validate_schedule
    if name == "run_local":
        from .local import run_local

        return run_local
    if name == "main":
        from .cli import main

        return main
    if name in ("SlimPackSampler", "TokenRangeDataset", "collate_pack"):
        from . import sampler

        return getattr(sampler, name)
    if name in ("sdpa_attention", "causal_attention"):
        from . import model

        return getattr(model, name)
    if name in ("UserError", "RunError"):
        from . import errors

        return getattr(errors, name)
    raise AttributeError(f"module 'slimpack_runtime' has no attribute {name!r}")
