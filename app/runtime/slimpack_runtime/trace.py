"""Per-rank profiler traces in the form `slimpack simulate --check-trace` and the explorer read.

torch.profiler writes what the build has: Kineto's object form, or (Debian's torch 1.13.1, built
without Kineto) the legacy profiler's bare JSON array with pid "CPU functions", no categories, no
`distributedInfo` and timestamps relative to each rank's profiler start. This module rewrites
either into one form: `{"traceEvents": [...], "distributedInfo": {"rank", "world_size", ...}}`,
our ranges with categories (`forward`, `backward`, `wait`, `p2p`, `dp_sync`), the rank's process
and thread named `replica r` / `stage s` (the default lane mapping of docs/file-formats-traces.md)
and the clocks of all ranks on one axis: every rank takes its wall clock at the anchor range right
after a barrier, and its events are shifted so that the anchor sits at (its wall clock minus the
earliest rank's), in microseconds.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import time
from typing import Any

ANCHOR = "slimpack_anchor"

_CATEGORY = [
    (re.compile(r"F[0-9]+"), "forward"),
    (re.compile(r"B[0-9]+"), "backward"),
    (re.compile(r"wait .*"), "wait"),
    (re.compile(r"(SEND|RECV)_[FB][0-9]+"), "p2p"),
    (re.compile(r"ALLREDUCE"), "dp_sync"),
    (re.compile(re.escape(ANCHOR)), "anchor"),
]


RUN_SCHEDULE = "schedule.json"  # the traced iteration's schedule, beside the rank traces


def write_run_schedule(trace_dir: str, text: str) -> str:
    """Writes the traced iteration's schedule as DIR/schedule.json, so that the trace folder is a
    whole run: the explorer's Open Run and `slimpack trace pipeline DIR --plan DIR/schedule.json`
    take it as it is (the folder's schedule is the run's plan and rank table), without the user
    copying the schedule in. Returns the path."""
    path = os.path.join(trace_dir, RUN_SCHEDULE)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)
    return path


def _category(name: str) -> str | None:
    for pat, cat in _CATEGORY:
        if pat.fullmatch(name):
            return cat
    return None


class RangeRecorder:
    """Names the runtime's ranges. With the profiler on, each range is a
    `torch.profiler.record_function` (the profiler records it with the operators inside); without
    it (`--trace-ranges-only`), the recorder keeps the ranges itself as complete events, which
    costs nothing (the legacy profiler's post-processing takes about a second per rank)."""

    def __init__(self, use_profiler: bool, pid: Any, tid: int):
        self.use_profiler = use_profiler
        self.pid, self.tid = pid, tid
        self.events: list[dict[str, Any]] = []
        self.origin = time.perf_counter()

    def range(self, name: str):
        if self.use_profiler:
            import torch

            return torch.profiler.record_function(name)
        return _OwnRange(self, name)


class _OwnRange:
    def __init__(self, rec: RangeRecorder, name: str):
        self.rec, self.name = rec, name

    def __enter__(self):
        self.t0 = time.perf_counter()
        return self

    def __exit__(self, *exc):
        t1 = time.perf_counter()
        self.rec.events.append({"name": self.name, "ph": "X", "pid": self.rec.pid,
                                "tid": self.rec.tid,
                                "ts": round((self.t0 - self.rec.origin) * 1e6, 3),
                                "dur": round((t1 - self.t0) * 1e6, 3), "args": {}})
        return False


@contextlib.contextmanager
def quiet_stderr():
    """Kineto prints its own lines to file descriptor 2 when a profiler starts and stops
    ("USDT: profiler_start", and on a machine without a GPU "gpuGetDeviceCount failed"), which
    no log level turns off; they are noise around every traced run, so the profiler's start,
    stop and export run with descriptor 2 on /dev/null."""
    sys.stderr.flush()
    saved = os.dup(2)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


def load_profiler_events(raw_path: str) -> list[Any]:
    """The events of torch.profiler's export: the legacy bare array or Kineto's object."""
    with open(raw_path, encoding="utf-8") as f:
        doc = json.load(f)
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def write_rank_trace(events: list[Any], out_path: str, *, rank: int, world_size: int,
                     replica: int, stage: int, backend: str, anchor_at_us: float,
                     unit_args: dict[str, dict], extra: dict[str, Any],
                     unit_durations_us: dict[str, float] | None = None) -> int:
    """Writes the rank's trace from its events (profiler or recorder); returns the event count.

    anchor_at_us: where the anchor range starts on the common axis (every timestamp is shifted
    by the same amount); unit_args: extra args per range name (`F3` -> {"pack": 2, "tokens": 188});
    unit_durations_us: replaces the duration of the named F/B ranges (their thread CPU time).
    """
    anchor = [e for e in events if isinstance(e, dict) and e.get("name") == ANCHOR and "ts" in e]
    if not anchor:
        raise RuntimeError(f"{out_path}: the trace has no {ANCHOR} range")
    shift_us = anchor_at_us - float(anchor[0]["ts"])
    out = []
    pids: set[Any] = set()
    tid_of_units = None
    for e in events:
        if not isinstance(e, dict):
            continue
        if "ts" in e and isinstance(e["ts"], (int, float)):
            e["ts"] = round(e["ts"] + shift_us, 3)
        name = e.get("name")
        if isinstance(name, str) and e.get("ph") in ("X", "B", "E"):
            cat = _category(name)
            if cat is not None:
                e["cat"] = cat
                args = dict(e.get("args") or {})
                args.update(unit_args.get(name, {}))
                e["args"] = args
                if cat in ("forward", "backward"):
                    tid_of_units = (e.get("pid"), e.get("tid"))
                    if unit_durations_us is not None and name in unit_durations_us:
                        args["wall_us"] = e.get("dur")
                        e["dur"] = round(unit_durations_us[name], 3)
            elif "cat" not in e:
                e["cat"] = "cpu_op"
        if "pid" in e:
            pids.add(e["pid"])
        out.append(e)
    meta = []
    for pid in sorted(pids, key=str):
        meta.append({"name": "process_name", "ph": "M", "pid": pid, "tid": 0,
                     "args": {"name": f"replica {replica}"}})
    if tid_of_units is not None:
        meta.append({"name": "thread_name", "ph": "M", "pid": tid_of_units[0],
                     "tid": tid_of_units[1], "args": {"name": f"stage {stage}"}})
    info = {"rank": rank, "world_size": world_size, "backend": backend, "replica": replica,
            "stage": stage}
    info.update(extra)
    result = {"traceEvents": meta + out, "distributedInfo": info, "displayTimeUnit": "ms",
              "otherData": {"generator": "slimpack-run",
                            "clock": "microseconds since the earliest rank's anchor "
                                     f"({ANCHOR}, taken right after a barrier)"}}
    tmp = out_path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(result, f, separators=(",", ":"))
    os.replace(tmp, out_path)
    return len(out)

