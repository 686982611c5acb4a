"""`--launcher env`: join a world that torchrun or Slurm started.

torchrun sets RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR and MASTER_PORT. Under Slurm (`srun`)
the rank, world size and local rank come from SLURM_PROCID, SLURM_NTASKS and SLURM_LOCALID; the
master address is MASTER_ADDR when set, else the first host of the job step's node list (by
`scontrol show hostnames`), and the port MASTER_PORT, else 15000 + the job id modulo 20000, so
that two jobs on one node do not collide. Rank 0 prepares the run (reads, solves, validates) and
broadcasts it; the device of a CUDA rank is its local rank.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from typing import Mapping

from .errors import UserError


@dataclass(frozen=True)
class WorldEnv:
    rank: int
    world: int
    local_rank: int
    master_addr: str
    master_port: int
    source: str  # "torchrun" or "slurm"


def world_from_env(env: Mapping[str, str]) -> WorldEnv:
    if "RANK" in env or "WORLD_SIZE" in env:
        rank = _int(env, "RANK")
        world = _int(env, "WORLD_SIZE")
        local = _int(env, "LOCAL_RANK") if "LOCAL_RANK" in env else rank
        addr = _need(env, "MASTER_ADDR")
        port = _int(env, "MASTER_PORT")
        source = "torchrun"
    elif "SLURM_PROCID" in env:
        rank = _int(env, "SLURM_PROCID")
        world = _int(env, "SLURM_NTASKS")
        local = _int(env, "SLURM_LOCALID") if "SLURM_LOCALID" in env else 0
        addr = env.get("MASTER_ADDR") or _first_host(env)
        port = _int(env, "MASTER_PORT") if "MASTER_PORT" in env else \
            15000 + int(env.get("SLURM_JOB_ID", "0") or 0) % 20000
        source = "slurm"
    else:
        raise UserError("--launcher env: RANK is not set: start slimpack-run under torchrun "
                        "(RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT) or srun (SLURM_PROCID, "
                        "SLURM_NTASKS), or use --launcher spawn")
    if world < 1 or not 0 <= rank < world:
        raise UserError(f"--launcher env: rank {rank} is outside the world of {world}")
    return WorldEnv(rank, world, local, addr, port, source)


def _need(env: Mapping[str, str], name: str) -> str:
    v = env.get(name, "")
    if not v:
        raise UserError(f"--launcher env: {name} is not set (torchrun sets it; under Slurm, "
                        "srun sets SLURM_* and slimpack-run derives it)")
    return v


def _int(env: Mapping[str, str], name: str) -> int:
    v = _need(env, name)
    try:
        return int(v)
    except ValueError:
        raise UserError(f"--launcher env: {name} is not an integer: '{v}'") from None


def _first_host(env: Mapping[str, str]) -> str:
    nodes = env.get("SLURM_STEP_NODELIST") or env.get("SLURM_JOB_NODELIST") or \
        env.get("SLURM_NODELIST")
    if not nodes:
        raise UserError("--launcher env: under Slurm without MASTER_ADDR, SLURM_STEP_NODELIST "
                        "or SLURM_JOB_NODELIST is needed to find the master host")
    try:
        out = subprocess.run(["scontrol", "show", "hostnames", nodes], capture_output=True,
                             text=True, timeout=30, check=True).stdout.split()
        if out:
            return out[0]
    except (OSError, subprocess.SubprocessError):
        pass
    return first_host_of(nodes)


def first_host_of(nodes: str) -> str:
    """The first host of a Slurm node list without scontrol: `n[01-04,07],m1` -> `n01`."""
    m = re.match(r"([^,\[]+)(?:\[([^\]]+)\])?", nodes.strip())
    if not m:
        raise UserError(f"--launcher env: cannot read the node list '{nodes}'")
    prefix, ranges = m.group(1), m.group(2)
    if not ranges:
        return prefix
    return prefix + re.split(r"[-,]", ranges)[0]
