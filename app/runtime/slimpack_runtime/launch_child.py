"""The entry of a rank process that `slimpack-run --launcher spawn` starts. Kept free of torch at
import time: the heartbeat starts before torch loads, so the launcher can tell a rank that is
importing from one that has stopped."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
import traceback

from .errors import UserError
from .runplan import RunConfig, RunPlan

BEAT_S = 0.25
_state = ["starting"]  # "running" once the rank has joined the world


def heartbeat_path(scratch: str, rank: int) -> str:
    return os.path.join(scratch, f"rank{rank}.beat")


def _beat(path: str) -> None:
    while True:
        try:
            with open(path, "w", encoding="ascii") as f:
                f.write(f"{time.time():.3f} {_state[0]}\n")
        except OSError:
            return
        time.sleep(BEAT_S)


def child_main(rank: int, world: int, cfg: RunConfig, plan: RunPlan) -> None:
    assert cfg.scratch is not None
    threading.Thread(target=_beat, args=(heartbeat_path(cfg.scratch, rank),), daemon=True).start()
    code = 0
    try:
        from .rank import run_rank

        summary = run_rank(cfg, rank, world, "file://" + os.path.join(cfg.scratch, "store"), plan,
                           on_joined=lambda: _state.__setitem__(0, "running"))
        if summary is not None:
            path = os.path.join(cfg.scratch, "summary.json")
            with open(path + ".tmp", "w", encoding="utf-8") as f:
                json.dump(summary, f)
            os.replace(path + ".tmp", path)
    except BaseException as e:  # reported by the launcher, with the rank
        kind = "user" if isinstance(e, UserError) else "run"
        with open(os.path.join(cfg.scratch, f"rank{rank}.error"), "w", encoding="utf-8") as f:
            json.dump({"kind": kind, "message": f"{type(e).__name__}: {e}" if kind == "run"
                       else str(e), "traceback": traceback.format_exc()}, f)
        code = 2 if kind == "user" else 1
    # Results are on disk: skip the interpreter's teardown (torch and gloo take seconds to
    # unload, per rank, on a loaded machine).
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
