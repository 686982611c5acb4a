"""The sampler: dataset lengths -> one schedule per iteration -> per rank, the token ranges of each
pack in action order, through a real DataLoader. The solver here is a stand-in script that writes
a schedule with the same command line as `slimpack solve`, so these tests do not depend on the
solver's choices; test_end_to_end.py runs the sampler on the real program."""

import json
import os
import stat

import pytest
import torch
from torch.utils.data import DataLoader

from slimpack_runtime.sampler import (SamplerError, SlimPackSampler, TokenRangeDataset,
                                      collate_pack)

HERE = os.path.dirname(os.path.abspath(__file__))

FAKE = """#!/usr/bin/python3
# Stand-in for `slimpack solve --lengths FILE ... --schedule-out OUT`: two stages, forward packs of
# one sequence each, the longest sequence cut in two; backward packs reversed.
import json, sys
sys.path.insert(0, {here!r})
from schedule_maker import make_schedule
args = sys.argv[1:]
assert args[0] == "solve"
lengths = json.load(open(args[args.index("--lengths") + 1]))
if "--fail" in args:
    sys.stderr.write("slimpack solve: --pp: must be at least 1\\n"); sys.exit(2)
seqs = [("s%d" % i, n, 0) for i, n in enumerate(lengths)]
big = max(range(len(lengths)), key=lambda i: lengths[i])
fwd = []
for i, n in enumerate(lengths):
    if i == big and n > 1:
        fwd += [[("s%d" % i, 0, n // 2)], [("s%d" % i, n // 2, n)]]
    else:
        fwd.append([("s%d" % i, 0, n)])
bwd = [[("s%d" % i, 0, n)] for i, n in reversed(list(enumerate(lengths)))]
doc = make_schedule(seqs, [fwd], [bwd], stages=2)
json.dump(doc, open(args[args.index("--schedule-out") + 1], "w"))
"""


@pytest.fixture
def fake_slimpack(tmp_path):
    path = tmp_path / "slimpack"
    path.write_text(FAKE.format(here=HERE))
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


LENGTHS = [7, 12, 5, 9, 3, 11]


def test_iterations_bind_sequences_to_dataset_samples(tmp_path, fake_slimpack):
    s = SlimPackSampler(LENGTHS, solve_args=["--pp", "2"], samples_per_iteration=3,
                        slimpack=fake_slimpack, workdir=str(tmp_path / "w"), shuffle=True, seed=3)
    assert len(s) == 2
    seen = []
    for i in range(len(s)):
        it = s.iteration(i)
        assert json.load(open(it.schedule_path))["format"] == "slimpack-schedule"
        for q in it.schedule.sequences.values():
            assert LENGTHS[it.dataset_index(q.id)] == q.length
        seen += it.samples
    assert sorted(seen) == list(range(6))


def test_batch_sampler_feeds_a_dataloader(tmp_path, fake_slimpack):
    data = [torch.arange(100 * i, 100 * i + n + 1) for i, n in enumerate(LENGTHS)]  # n+1 ids
    s = SlimPackSampler(LENGTHS, solve_args=[], samples_per_iteration=3, slimpack=fake_slimpack,
                        workdir=str(tmp_path / "w"))
    for rank in (0, 1):
        loader = DataLoader(TokenRangeDataset(data), batch_sampler=s.batch_sampler(rank),
                            collate_fn=collate_pack)
        batches = list(loader)
        assert len(batches) == len(s.batch_sampler(rank))
        tokens = 0
        for b in batches:
            it = s.iteration(b["iteration"])
            pack = it.schedule.replicas[0].forward_packs[b["pack"]]
            assert b["input_ids"].numel() == pack.tokens == b["labels"].numel()
            assert b["cu_seqlens"].tolist()[-1] == pack.tokens
            for r, seg in zip(b["ranges"], pack.segments):
                assert (r.begin, r.end, r.seq) == (seg.begin, seg.end, seg.seq)
                ids = data[r.sample][r.begin:r.end]
                assert torch.equal(b["input_ids"][:ids.numel()], ids) or len(b["ranges"]) > 1
            tokens += pack.tokens
        assert tokens == sum(LENGTHS)  # every token of both iterations, each once
        # The rank's order is its action order: F packs ascending in these schedules.
        assert [b["pack"] for b in batches if b["iteration"] == 0] == sorted(
            b["pack"] for b in batches if b["iteration"] == 0)


def test_token_budget_batches(tmp_path, fake_slimpack):
    s = SlimPackSampler(LENGTHS, solve_args=[], tokens_per_iteration=20, slimpack=fake_slimpack,
                        workdir=str(tmp_path / "w"))
    # 7+12 | 5+9+3 | 11: the last, short of the budget, is dropped
    assert [sum(LENGTHS[i] for i in b) for b in s.batches] == [19, 17]


def test_solver_failure_is_reported(tmp_path, fake_slimpack):
    s = SlimPackSampler(LENGTHS, solve_args=["--fail"], samples_per_iteration=3,
                        slimpack=fake_slimpack, workdir=str(tmp_path / "w"))
    with pytest.raises(SamplerError, match="--pp: must be at least 1"):
        s.iteration(0)


def test_schedule_is_reused(tmp_path, fake_slimpack):
    w = str(tmp_path / "w")
    a = SlimPackSampler(LENGTHS, solve_args=[], samples_per_iteration=3, slimpack=fake_slimpack,
                        workdir=w)
    path = a.iteration(0).schedule_path
    mtime = os.stat(path).st_mtime_ns
    b = SlimPackSampler(LENGTHS, solve_args=[], samples_per_iteration=3,
                        slimpack="/nonexistent/slimpack", workdir=w)
    assert b.iteration(0).schedule_path == path and os.stat(path).st_mtime_ns == mtime
    with pytest.raises(SamplerError, match="cannot run"):
        b.iteration(1)


def test_epochs_and_state_dict_continue_where_a_run_stopped(tmp_path, fake_slimpack):
    def make():
        return SlimPackSampler(LENGTHS, solve_args=["--pp", "2"], samples_per_iteration=2,
                               slimpack=fake_slimpack, workdir=str(tmp_path / "w"), shuffle=True,
                               seed=5)

    a = make()
    order = [a.next_iteration().samples for _ in range(7)]  # 3 per epoch: into the third epoch
    assert a.epoch == 2 and a.position == 1
    first, second = order[:3], order[3:6]
    assert sorted(sum(first, [])) == sorted(sum(second, [])) == list(range(6))
    assert first != second  # each epoch reshuffled (seed + epoch)
    b = make()
    for _ in range(4):
        b.next_iteration()
    state = json.loads(json.dumps(b.state_dict()))  # through a checkpoint file
    c = make()
    c.load_state_dict(state)
    assert [c.next_iteration().samples for _ in range(3)] == order[4:7]
    with pytest.raises(ValueError, match="for 6 samples"):
        SlimPackSampler(LENGTHS[:5], solve_args=[], samples_per_iteration=2,
                        slimpack=fake_slimpack).load_state_dict(state)
