"""The launchers clusters use, and a run that ends cleanly when a rank misbehaves: torchrun
starting `python -m slimpack_runtime --launcher env`, the env launcher's refusals (a missing
variable, a world of the wrong size, ranks that never arrive), and a rank stopped by SIGSTOP
under the spawn launcher, which must end the run within --timeout with no process left."""

import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from schedule_maker import make_schedule

SEQS = [("s0", 40, 0), ("s1", 12, 0), ("s2", 20, 0)]
FWD = [[[("s0", 0, 16)], [("s0", 16, 40), ("s1", 0, 12)], [("s2", 0, 20)]]]
BWD = [[[("s2", 0, 20), ("s0", 24, 40)], [("s0", 8, 24), ("s1", 0, 12)], [("s0", 0, 8)]]]


def _schedule(tmp_path, stages=2, replicas=1):
    fwd, bwd, seqs = FWD, BWD, SEQS
    if replicas == 2:
        seqs = SEQS + [("t0", 30, 1), ("t1", 10, 1)]
        fwd = FWD + [[[("t0", 0, 30)], [("t1", 0, 10)]]]
        bwd = BWD + [[[("t1", 0, 10), ("t0", 15, 30)], [("t0", 0, 15)]]]
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(make_schedule(seqs, fwd, bwd, stages=stages,
                                             recompute=[1] + [0] * (stages - 1))))
    return str(path)


def _env(root, **extra):
    env = {k: v for k, v in os.environ.items()
           if k not in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT")
           and not k.startswith("SLURM_")}
    env["PYTHONPATH"] = os.path.join(root, "app", "runtime")
    env.update({k: str(v) for k, v in extra.items()})
    return env


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_torchrun_runs_the_schedule_and_passes_check(root, tmp_path):
    sched = _schedule(tmp_path, stages=2, replicas=2)  # 4 ranks: two stages, two replicas
    torchrun = os.path.join(os.path.dirname(sys.executable), "torchrun")
    out = tmp_path / "s.json"
    # A static rendezvous at 127.0.0.1 (not --standalone's "localhost", which a chroot may not
    # resolve: CI's fresh Debian root has no /etc/hosts entry for it).
    proc = subprocess.run([torchrun, "--nnodes", "1", "--nproc-per-node", "4", "--master-addr",
                           "127.0.0.1", "--master-port", str(_free_port()), "-m",
                           "slimpack_runtime", sched, "--launcher", "env", "--check",
                           "--json", str(out), "--timeout", "120"],
                          capture_output=True, text=True, timeout=600, env=_env(root))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    s = json.loads(out.read_text())
    assert s["launcher"] == "env" and s["world_source"] == "torchrun" and s["world_size"] == 4
    assert s["check"]["ok"] and s["check"]["max_rel_error"] < 1e-9


def test_env_launcher_without_a_world_says_which_variable(root, run_script, tmp_path):
    sched = _schedule(tmp_path)
    proc = subprocess.run([run_script, sched, "--launcher", "env"], capture_output=True,
                          text=True, timeout=300, env=_env(root))
    assert proc.returncode == 2 and "RANK is not set" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    proc = subprocess.run([run_script, sched, "--launcher", "env"], capture_output=True,
                          text=True, timeout=300, env=_env(root, RANK=0, WORLD_SIZE=2))
    assert proc.returncode == 2 and "MASTER_ADDR is not set" in proc.stderr


def _start(run_script, sched, root, rank, world, port, *extra):
    return subprocess.Popen([run_script, sched, "--launcher", "env", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=_env(root, RANK=rank, WORLD_SIZE=world, LOCAL_RANK=rank,
                                     MASTER_ADDR="127.0.0.1", MASTER_PORT=port))


def test_a_world_of_the_wrong_size_is_refused_on_every_rank(root, run_script, tmp_path):
    sched = _schedule(tmp_path)  # 2 ranks
    port = _free_port()
    procs = [_start(run_script, sched, root, r, 3, port, "--timeout", "120") for r in range(3)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [2, 2, 2], outs
    assert "the schedule has 2 processes" in outs[0][1] and "started 3 (WORLD_SIZE)" in outs[0][1]


def test_ranks_that_never_arrive_end_within_the_timeout(root, run_script, tmp_path):
    sched = _schedule(tmp_path)
    t0 = time.monotonic()
    p = _start(run_script, sched, root, 0, 2, _free_port(), "--timeout", "4")
    _, err = p.communicate(timeout=300)
    assert p.returncode == 1 and "did not all arrive within --timeout 4 s" in err, err
    assert len(err.strip().splitlines()) == 1
    assert time.monotonic() - t0 < 120  # the timeout, plus starting Python and torch


def _descendants(pid):
    out, pending = set(), [pid]
    while pending:
        p = pending.pop()
        try:
            for t in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{t}/children") as f:
                    kids = [int(x) for x in f.read().split()]
                out.update(kids)
                pending += kids
        except OSError:
            pass
    return out


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_stopped_rank_ends_the_run_within_the_timeout(root, run_script, tmp_path):
    sched = _schedule(tmp_path)
    env = _env(root, SLIMPACK_PYTHON=sys.executable)
    # Enough iterations that the ranks are still working when one of them is stopped.
    launcher = subprocess.Popen([run_script, sched, "--timeout", "5", "--iterations", "400",
                                 "--trace-ranges-only"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 240
    ranks, servers = [], []
    while time.monotonic() < deadline and len(ranks) < 2:
        # The ranks are the children of the launcher's fork server.
        servers = [p for p in _descendants(launcher.pid) if _cmdline_is_rank(p)]
        ranks = [r for srv in servers for r in _descendants(srv)]
        time.sleep(0.2)
    assert len(ranks) >= 2, "the ranks did not start"
    time.sleep(8)  # past start-up: the ranks are iterating
    assert launcher.poll() is None, launcher.communicate()
    victim = sorted(ranks)[-1]
    os.kill(victim, signal.SIGSTOP)
    stopped_at = time.monotonic()
    try:
        _, err = launcher.communicate(timeout=60)
    finally:
        if launcher.poll() is None:
            launcher.kill()
    elapsed = time.monotonic() - stopped_at
    assert launcher.returncode == 1, err
    assert "stopped responding" in err and "rank " in err, err
    # The launcher sees the stop within the timeout (its message says when); the process then
    # exits at once, but a loaded machine may delay any process by a few seconds.
    assert elapsed < 5 + 10, f"the run ended {elapsed:.1f} s after the stop (--timeout 5): {err}"
    gone_by = time.monotonic() + 5
    while [p for p in ranks + servers if _alive(p)] and time.monotonic() < gone_by:
        time.sleep(0.1)
    assert not [p for p in ranks + servers if _alive(p)], "a process outlived the launcher"


def _cmdline_is_rank(pid):  # the fork server the ranks are forked from
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return b"multiprocessing.forkserver" in f.read()
    except OSError:
        return False


def test_ranks_execute_the_bytes_that_were_validated(tmp_path):
    """The launcher validates, then starts the ranks with those bytes: a schedule file replaced
    in between (here: by garbage) changes nothing."""
    import argparse

    from slimpack_runtime.cli import build_parser, _check_args, _config
    from slimpack_runtime.launch import launch_spawn
    from slimpack_runtime.prepare import prepare_run

    sched = _schedule(tmp_path)
    args = build_parser().parse_args([sched, "--check", "--trace-ranges-only"])
    _check_args(args)
    plan = prepare_run(args, 8)
    with open(sched, "w") as f:
        f.write("{ not a schedule")
    summary = launch_spawn(_config(args), plan, 2)
    assert summary["check"]["ok"] and summary["world_size"] == 2
    assert isinstance(args, argparse.Namespace)
