"""`--launcher spawn`: starts one process per rank on this machine and watches them.

The launcher owns the processes: it starts them (multiprocessing's fork server, which imports
torch once and forks a rank per process), reads a heartbeat every rank writes from the moment it starts, and ends the run as
soon as a rank fails or stops responding: a rank that exited with an error, a rank that is stopped
(SIGSTOP) or whose heartbeat is older than --timeout, or a world that did not finish. It then
kills every rank that is left (SIGKILL reaches stopped processes too) and names the culprit; no
process outlives the launcher, whatever ends it.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import shutil
import signal
import tempfile
import time
from typing import Any, Optional

from .errors import RunError, UserError
from .launch_child import child_main, heartbeat_path
from .runplan import RunConfig, RunPlan

POLL_S = 0.05
STARTUP_GRACE_S = 60.0  # before its first heartbeat a rank is starting Python, not hung


def launch_spawn(cfg: RunConfig, plan: RunPlan, world: int) -> dict[str, Any]:
    """Runs the world; returns rank 0's summary or raises UserError / RunError."""
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        # Each rank's BLAS pool would otherwise spin nproc threads and the ranks would fight
        # over the cores (8x slower on 2 cores), and thread CPU time would miss the work.
        os.environ[var] = str(cfg.threads)
    # All ranks are on this machine: gloo on the loopback interface. Otherwise gloo resolves the
    # host name, and where that fails (a chroot, a container) warns on every rank before falling
    # back to the loopback anyway.
    os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")
    scratch = tempfile.mkdtemp(prefix="slimpack-run-")
    cfg.scratch = scratch
    # A fork server that imports torch once and forks the ranks from there: every rank starting
    # its own interpreter and importing torch took 10.6-10.8 s for 4 ranks on 2 cores (a bare
    # import is 3.6-4.1 s); the server has run no torch operation, so it has no threads to lose
    # in the fork.
    ctx = mp.get_context("forkserver")
    # Imported once in the fork server, not once per rank (transformers takes seconds).
    ctx.set_forkserver_preload(["slimpack_runtime.rank"]
                               + (["slimpack_runtime.hf_model"] if plan.hf is not None else []))
    procs: list[Any] = []
    spawned = time.time()
    try:
        for r in range(world):
            p = ctx.Process(target=child_main, args=(r, world, cfg, plan), name=f"rank{r}")
            p.start()
            procs.append(p)
        failure = _supervise(procs, scratch, cfg.timeout_s)
        joined = time.time()
        if failure is not None:
            raise failure
        with open(os.path.join(scratch, "summary.json"), encoding="utf-8") as f:
            summary = json.load(f)
        ph = summary["phases_s"]
        ph["start_s"] = ph.pop("started_at") - spawned  # processes up, torch imported
        ph["exit_s"] = joined - spawned - ph["start_s"] - ph["connect_s"] - ph["iterations_s"] - \
            ph["traces_s"]  # gathering, rank 0's summary and --check, exits
        summary["run_wall_s"] = joined - spawned
        return summary
    finally:
        _kill(procs)
        _stop_fork_server()
        shutil.rmtree(scratch, ignore_errors=True)


def _stop_fork_server() -> None:
    """The fork server would exit by itself once the launcher is gone, but only after unloading
    torch (seconds): it is killed with the ranks. multiprocessing reaps it, and starts a new one
    for a later run in this process."""
    from multiprocessing import forkserver

    pid = getattr(forkserver._forkserver, "_forkserver_pid", None)  # type: ignore[attr-defined]
    if pid:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def _supervise(procs: list[Any], scratch: str, timeout: float) -> Optional[Exception]:
    started = time.time()
    while True:
        codes = [p.exitcode for p in procs]
        if all(c == 0 for c in codes):
            return None
        now = time.time()
        stopped = [r for r, p in enumerate(procs) if p.exitcode is None and _stopped(p.pid)]
        silent = [r for r, p in enumerate(procs)
                  if p.exitcode is None and _silence(scratch, r, started, now, timeout) > 0]
        failed = [r for r, c in enumerate(codes) if c not in (None, 0)]
        if stopped and failed:
            # A stopped rank makes its peers fail (their receives time out): name the cause.
            _kill(procs)
            return RunError(f"rank {stopped[0]} stopped responding: its process is stopped "
                            f"(e.g. by SIGSTOP) and its peers timed out (--timeout {timeout:g})")
        if silent:
            _kill(procs)
            r = silent[0]
            quiet = _silence(scratch, r, started, now, timeout) + timeout
            return RunError(f"rank {r} stopped responding: no heartbeat for {quiet:.1f} s "
                            f"(--timeout {timeout:g})")
        if failed:
            time.sleep(0.2)  # let the failed rank's peers write their own errors
            _kill(procs)
            return _rank_failure(scratch, procs, failed)
        time.sleep(POLL_S)


def _silence(scratch: str, r: int, started: float, now: float, timeout: float) -> float:
    """How far past its allowance rank r's heartbeat is (> 0: too long silent). A rank that has
    joined the world is allowed --timeout; one still starting (Python, torch, the rendezvous,
    which can hold the interpreter for seconds on a loaded machine) at least STARTUP_GRACE_S."""
    path = heartbeat_path(scratch, r)
    try:
        with open(path, encoding="ascii") as f:
            running = f.read().split()[1:2] == ["running"]
        age = now - os.stat(path).st_mtime
    except (OSError, IndexError):
        return now - started - max(timeout, STARTUP_GRACE_S)  # not beating yet: starting
    return age - (timeout if running else max(timeout, STARTUP_GRACE_S))


def _stopped(pid: Optional[int]) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("T", "t")
    except (OSError, IndexError):
        return False


def _kill(procs: list[Any]) -> None:
    for p in procs:
        if p.exitcode is None:
            try:
                os.kill(p.pid, signal.SIGKILL)
            except (OSError, TypeError):
                pass
    for p in procs:
        p.join(timeout=5)


def _rank_failure(scratch: str, procs: list[Any], failed: list[int]) -> Exception:
    errors = {}
    for r in range(len(procs)):
        path = os.path.join(scratch, f"rank{r}.error")
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                errors[r] = json.load(f)
    # A user error (bad input) wins; then the first rank that failed on its own rather than
    # because a peer went away (those report a closed connection or a timeout).
    for r, err in sorted(errors.items()):
        if err["kind"] == "user":
            return UserError(err["message"])
    secondary = ("Connection closed", "Connection reset", "Timed out", "timed out")
    order = sorted(errors, key=lambda r: (any(w in errors[r]["message"] for w in secondary), r))
    if order:
        r = order[0]
        tb = errors[r]["traceback"].rstrip().splitlines()
        where = next((ln.strip() for ln in reversed(tb) if ln.strip().startswith("File ")), "")
        return RunError(f"rank {r} failed: {errors[r]['message']}" + (f" ({where})" if where else ""))
    r = failed[0]
    code = procs[r].exitcode
    how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit {code}"
    return RunError(f"rank {r} died ({how}) without a message")
