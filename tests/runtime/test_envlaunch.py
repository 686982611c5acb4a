"""--launcher env: where the rank, world and rendezvous come from (torchrun's variables, Slurm's),
and one clear message for each thing that is missing."""

import pytest

from slimpack_runtime.envlaunch import first_host_of, world_from_env
from slimpack_runtime.errors import UserError


def test_torchrun_variables():
    w = world_from_env({"RANK": "3", "WORLD_SIZE": "4", "LOCAL_RANK": "1",
                        "MASTER_ADDR": "10.0.0.1", "MASTER_PORT": "29500"})
    assert (w.rank, w.world, w.local_rank, w.master_addr, w.master_port, w.source) == \
        (3, 4, 1, "10.0.0.1", 29500, "torchrun")


def test_slurm_variables_with_the_master_from_the_node_list(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")  # no scontrol: the node list is read directly
    w = world_from_env({"SLURM_PROCID": "5", "SLURM_NTASKS": "8", "SLURM_LOCALID": "1",
                        "SLURM_STEP_NODELIST": "gpu[07-08,11]", "SLURM_JOB_ID": "123456"})
    assert (w.rank, w.world, w.local_rank, w.master_addr, w.source) == (5, 8, 1, "gpu07", "slurm")
    assert w.master_port == 15000 + 123456 % 20000


@pytest.mark.parametrize("nodes,first", [("n1", "n1"), ("node[3-4]", "node3"),
                                         ("a[10,2]", "a10"), ("x01,y02", "x01")])
def test_first_host_of_a_node_list(nodes, first):
    assert first_host_of(nodes) == first


@pytest.mark.parametrize("env,msg", [
    ({}, "RANK is not set"),
    ({"RANK": "0", "WORLD_SIZE": "2"}, "MASTER_ADDR is not set"),
    ({"RANK": "x", "WORLD_SIZE": "2", "MASTER_ADDR": "h", "MASTER_PORT": "1"},
     "RANK is not an integer: 'x'"),
    ({"RANK": "2", "WORLD_SIZE": "2", "MASTER_ADDR": "h", "MASTER_PORT": "1"},
     "rank 2 is outside the world of 2"),
    ({"SLURM_PROCID": "0", "SLURM_NTASKS": "2"}, "SLURM_STEP_NODELIST or SLURM_JOB_NODELIST"),
])
def test_what_is_missing_is_named(env, msg):
    with pytest.raises(UserError, match=msg):
        world_from_env(env)
