"""Reference runtime for slimpack-schedule files (docs/runtime.md).

It executes a schedule that `slimpack solve --schedule-out` wrote, action by action, one process
per (replica, stage) rank, so that a plan the explorer shows can be run and its gradients checked
against a single-process run. It is a reference, not a fast trainer: its job is to prove that the
schedule (asymmetric packs, drains, recompute, DP replicas) is executable exactly.
"""

__version__ = "0.1.0"
