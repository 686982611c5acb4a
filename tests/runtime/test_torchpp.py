"""`--engine torch-pp`: plans run by PyTorch's own pipeline runtime (torch.distributed.pipelining).

- the CSV of a `fixed` and a `balanced` plan (written by `slimpack solve`) loads with torch's own
  `_PipelineScheduleRuntime._load_csv`, in both formats, and passes its validation and dry run;
  the compute_comms rows are exactly torch's `_add_send_recv` + `_add_wait_send` lowering;
- what torch cannot run is refused with the first reason (hand-made schedules: regrouping,
  slicing, replicas with different pack counts; the solver's asymmetric `slimpack` plan through
  the command line: exit 2, one line, before any process starts);
- padding changes neither the loss nor any gradient (the stage modules chained in this process,
  with more padding than needed and garbage in the padding rows);
- spawned runs with `--check` (two stages; two stages x two replicas with compute_comms), their
  traces holding torch's `PP:` range of every compute action of the CSV.
"""

import csv
import io
import json
import os
import re
import subprocess

import pytest
import torch

from schedule_maker import make_schedule
from slimpack_runtime.cli import main
from slimpack_runtime.data import RandomTokens
from slimpack_runtime.errors import UserError
from slimpack_runtime.model import StageModel
from slimpack_runtime.reference import compare_gradients, reference_gradients
from slimpack_runtime.schedule import load_schedule, parse_schedule
from slimpack_runtime.torchpp_csv import torchpp_plan
from slimpack_runtime.torchpp_engine import (PackStage, pack_inputs, pack_loss, torch_dry_run,
                                             torch_problem)

S = pytest.importorskip("torch.distributed.pipelining.schedules")
if torch_problem():
    pytest.skip(torch_problem(), allow_module_level=True)

LENGTHS = [97, 15, 120, 40, 40, 61, 8, 33, 5]
SMALL = {"name": "tiny-4x64", "layers": 4, "hidden": 64, "ffn": 128, "heads": 4, "kv_heads": 2,
         "vocab": 128}


@pytest.fixture(scope="module")
def plans(slimpack_bin, root, tmp_path_factory):
    """`slimpack solve` schedules of a small model: (strategy, dp) -> path."""
    tmp = tmp_path_factory.mktemp("torchpp")
    with open(os.path.join(root, "samples", "models", "tiny-8x256.json")) as f:
        costs = json.load(f)
    costs["model"] = SMALL
    (tmp / "small.json").write_text(json.dumps(costs))
    (tmp / "lengths.json").write_text(json.dumps(LENGTHS))
    out = {}
    for strategy, dp, extra in (("fixed", 1, []), ("balanced", 1, []), ("balanced", 2, []),
                                ("slimpack", 1, ["--slice", "16", "--packs", "9"])):
        path = tmp / f"{strategy}-d{dp}.schedule.json"
        proc = subprocess.run([slimpack_bin, "solve", "--lengths", str(tmp / "lengths.json"),
                               "--costs", str(tmp / "small.json"), "--tp", "1", "--pp", "2",
                               "--dp", str(dp), "--strategy", strategy, "--no-dp-merge", *extra,
                               "--schedule-out", str(path), "--out", os.devnull],
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        out[(strategy, dp)] = str(path)
    return out


# ----- the CSV, loaded by torch ------------------------------------------------------------------

def _runtime_on_fake_world(p, microbatches):
    """A _PipelineScheduleRuntime for rank 0 of a fake world of p ranks (no communication)."""
    import torch.distributed as dist
    from torch.distributed.pipelining import PipelineStage
    from torch.testing._internal.distributed.fake_pg import FakeStore

    dist.init_process_group("fake", store=FakeStore(), rank=0, world_size=p)
    stage = PipelineStage(torch.nn.Linear(4, 4), 0, p, torch.device("cpu"),
                          input_args=torch.empty(2, 4), output_args=torch.empty(2, 4))
    return S._PipelineScheduleRuntime([stage], n_microbatches=microbatches,
                                      loss_fn=lambda y, t: y.sum(), scale_grads=False)


@pytest.mark.parametrize("strategy", ["fixed", "balanced"])
def test_csv_loads_with_torchs_own_load_csv(plans, tmp_path, strategy):
    import torch.distributed as dist

    tp = torchpp_plan(load_schedule(plans[(strategy, 1)]))
    assert tp.microbatches >= 2 and tp.pack_tokens == max(
        sum(n for _, n in mb) for mb in tp.layouts[0])
    for fmt in ("compute_only", "compute_comms"):
        text = tp.csv_text(fmt)
        path = tmp_path / f"{fmt}.csv"
        path.write_text(text)
        torch_dry_run(text, fmt, tp.stages, tp.microbatches, str(path))
        rt = _runtime_on_fake_world(tp.stages, tp.microbatches)
        try:
            rt._load_csv(str(path), format=fmt)  # torch's parser, _validate_schedule, lowering
            if fmt == "compute_only":
                assert [[str(a) for a in rt.pipeline_order[r]] for r in range(tp.stages)] == \
                    tp.rows
                lowered = rt.pipeline_order_with_comms
            else:
                lowered = rt.pipeline_order_with_comms
                assert [[str(a) for a in lowered[r]] for r in range(tp.stages)] == \
                    [row for row in csv.reader(io.StringIO(text))]
            # every micro-batch once forward and once backward on every stage
            for r in range(tp.stages):
                cells = [str(a) for a in lowered[r]]
                for k in range(tp.microbatches):
                    assert cells.count(f"{r}F{k}") == 1 and cells.count(f"{r}B{k}") == 1
        finally:
            dist.destroy_process_group()
    # compute_comms is torch's own lowering of the compute-only rows, and its dry run passes
    acts = {r: [S._Action.from_str(c) for c in row] for r, row in enumerate(tp.rows)}
    comms = S._add_wait_send(S._add_send_recv(acts, lambda s: s, tp.stages))
    assert [[str(a) for a in comms[r]] for r in range(tp.stages)] == tp.csv_rows("compute_comms")
    S._simulate_comms_compute(comms, lambda s: s, tp.stages)


def test_csv_of_another_torch_release_is_refused():
    with pytest.raises(UserError, match=r"'0BW0' reads as '0B'"):
        torch_dry_run("0F0,0BW0\n1F0,1B0\n", "compute_only", 2, 1, "old.csv")
    with pytest.raises(UserError, match="Invalid action string"):
        torch_dry_run("0F0,0X0\n1F0,1B0\n", "compute_only", 2, 1, "old.csv")
    with pytest.raises(UserError, match="without first running Forward"):
        torch_dry_run("0F0,0B0\n1B0,1F0\n", "compute_only", 2, 1, "order.csv")


# ----- what torch cannot run ---------------------------------------------------------------------

def _plan(seqs, fwd, bwd, **kw):
    return torchpp_plan(parse_schedule(make_schedule(seqs, fwd, bwd, **kw), "hand.json"))


@pytest.mark.parametrize("seqs,fwd,bwd,reason", [
    ([("a", 10, 0), ("b", 10, 0), ("c", 6, 0)],
     [[[("a", 0, 10)], [("b", 0, 10), ("c", 0, 6)]]],
     [[[("a", 0, 10), ("b", 0, 10)], [("c", 0, 6)]]],
     "backward pack 0 regroups forward packs 0 and 1"),
    ([("a", 10, 0), ("b", 7, 0)],
     [[[("a", 0, 4)], [("a", 4, 10), ("b", 0, 7)]]],
     [[[("a", 0, 4)], [("a", 4, 10), ("b", 0, 7)]]],
     "sequence a is sliced across packs 0 and 1"),
    ([("a", 10, 0), ("b", 7, 0), ("c", 6, 0)],
     [[[("a", 0, 10)], [("b", 0, 7)], [("c", 0, 6)]]],
     [[[("b", 0, 7)], [("a", 0, 10), ("c", 0, 6)]]],
     "forward and backward pack counts differ (3 forward, 2 backward packs"),
    ([("a", 10, 0), ("b", 7, 0), ("c", 6, 1), ("d", 5, 1), ("e", 4, 1)],
     [[[("a", 0, 10)], [("b", 0, 7)]], [[("c", 0, 6)], [("d", 0, 5)], [("e", 0, 4)]]],
     [[[("a", 0, 10)], [("b", 0, 7)]], [[("c", 0, 6)], [("d", 0, 5)], [("e", 0, 4)]]],
     "replicas have 2 and 3 packs"),
])
def test_refusal_names_the_first_reason(seqs, fwd, bwd, reason):
    with pytest.raises(UserError) as e:
        _plan(seqs, fwd, bwd)
    msg = str(e.value)
    assert msg.startswith("hand.json: --engine torch-pp cannot run this plan: ") and reason in msg
    assert "--strategy balanced" in msg


def test_tensor_parallel_plan_is_refused():
    doc = make_schedule([("a", 10, 0)], [[[("a", 0, 10)]]], [[[("a", 0, 10)]]])
    doc["setup"]["tp"] = 2
    with pytest.raises(UserError, match=r"tensor parallelism \(tp = 2\)"):
        torchpp_plan(parse_schedule(doc, "hand.json"))


def test_backward_packs_in_another_order_run_as_their_forward_micro_batch():
    tp = _plan([("a", 10, 0), ("b", 7, 0)], [[[("a", 0, 10)], [("b", 0, 7)]]],
               [[[("b", 0, 7)], [("a", 0, 10)]]])
    assert tp.backward_of == [1, 0]
    assert tp.rows == [["0F0", "0F1", "0B1", "0B0"], ["1F0", "1F1", "1B1", "1B0"]]
    assert (tp.pack_tokens, tp.pad_tokens) == (10, 3)


def test_asymmetric_slimpack_plan_is_refused_before_any_process(plans, capsys):
    path = plans[("slimpack", 1)]
    s = load_schedule(path)
    rep = s.replicas[0]
    assert len(rep.forward_packs) != len(rep.backward_packs) or any(
        len({c.forward_pack for c in b.consumes}) > 1 for b in rep.backward_packs), \
        "the solver's slimpack plan is no longer asymmetric: pick other options"
    code = main([path, "--engine", "torch-pp", "--check"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and err.count("\n") == 1, err
    assert "cannot run this plan: " in err and ("pack counts differ" in err
                                                  or "regroups" in err or "sliced" in err), err


def test_options_the_engine_does_not_take(plans, capsys):
    for extra in (["--in-process"], ["--optimizer", "adamw"], ["--trace-ranges-only"]):
        code = main([plans[("fixed", 1)], "--engine", "torch-pp", *extra])
        err = capsys.readouterr().err
        assert code == 2 and "--engine torch-pp" in err and extra[0] in err, err
    code = main([plans[("fixed", 1)], "--torch-pp-format", "compute_comms"])
    assert code == 2 and "need --engine torch-pp" in capsys.readouterr().err


# ----- padding changes nothing -------------------------------------------------------------------

SEQS = [("a", 23, 0), ("b", 9, 0), ("c", 17, 0), ("d", 5, 0), ("e", 11, 0)]
FWD = [[[("a", 0, 23)], [("b", 0, 9), ("c", 0, 17)], [("d", 0, 5), ("e", 0, 11)]]]
BWD = [[[("b", 0, 9), ("c", 0, 17)], [("a", 0, 23)], [("d", 0, 5), ("e", 0, 11)]]]


def _chain(s, tp, extra_pad=0, garbage=False):
    """Runs the stage modules of replica 0 one after another in this process, each micro-batch
    forward through every stage, its loss, and backward, as torch's runtime does across ranks.
    Returns every parameter's gradient and the loss."""
    dims = s.setup.model
    p = s.setup.stages
    T = tp.pack_tokens + extra_pad
    models, stages = [], []
    for rk in s.ranks:
        m = StageModel(dims, rk.first_layer, rk.layers, rk.stage == 0, rk.stage == p - 1, 1234,
                       torch.float64, torch.device("cpu"), "sdpa")
        models.append(m)
        stages.append(PackStage(m, tp.layouts[0], T, rk.stage == 0, rk.stage == p - 1))
    tp_t = type(tp)(**{**tp.__dict__, "pack_tokens": T})
    ins, tgts = pack_inputs(tp_t, s, RandomTokens(dims.vocab, 1234), 0, torch.device("cpu"))
    loss_fn = pack_loss(models[-1], s.total_tokens())
    g = torch.Generator().manual_seed(7)
    total = 0.0
    for k in range(tp.microbatches):
        x, saved = ins[k], []
        for st, mod in enumerate(stages):
            mod.microbatch = k
            if st > 0:
                x = x.detach().clone()
                if garbage:  # whatever the padding rows hold, nothing reaches the real rows
                    used = sum(n for _, n in tp.layouts[0][k])
                    x[used:] = torch.randn(T - used, dims.hidden, generator=g,
                                           dtype=torch.float64) * 50
                x.requires_grad_(True)
            y = mod(x)
            saved.append((x, y))
            x = y
        loss = loss_fn(x, tgts[k])
        total += float(loss.detach())
        grad = None
        for st in reversed(range(p)):
            xin, y = saved[st]
            if st == p - 1:
                loss.backward()
            else:
                y.backward(grad)
            grad = xin.grad if st > 0 else None
    grads = {n: q.grad.detach().clone() for m in models for n, q in m.named_parameters()
             if q.grad is not None}
    return grads, total


def test_padding_changes_neither_loss_nor_gradients():
    s = parse_schedule(make_schedule(SEQS, FWD, BWD, stages=2), "hand.json")
    tp = torchpp_plan(s)
    assert tp.pack_tokens == 26 and tp.pad_tokens == 3 * 26 - 65
    ref, ref_loss = reference_gradients(s, 1234)
    tight, loss = _chain(s, tp)
    err, name = compare_gradients(tight, ref)
    assert err < 1e-12, (err, name)
    assert abs(loss - ref_loss) < 1e-12 * abs(ref_loss)
    padded, loss2 = _chain(s, tp, extra_pad=37, garbage=True)
    err2, name2 = compare_gradients(padded, ref)
    assert err2 < 1e-12, (err2, name2)
    assert abs(loss2 - ref_loss) < 1e-12 * abs(ref_loss)
    # the padding adds exact zeros: the padded gradients equal the tight ones bit for bit, up to
    # the order of additions in a matrix product of another shape
    err3, _ = compare_gradients(padded, tight)
    assert err3 < 1e-14


# ----- spawned runs with --check -----------------------------------------------------------------

def _run(run_script, *args, timeout=600):
    return subprocess.run([run_script, *args], capture_output=True, text=True, timeout=timeout)


def _pp_ranges(trace):
    with open(trace) as f:
        doc = json.load(f)
    return doc, [e["name"] for e in doc["traceEvents"]
                 if isinstance(e.get("name"), str) and e["name"].startswith("PP:")]


def test_fixed_plan_runs_with_check_and_torchs_traces(plans, run_script, tmp_path):
    out = tmp_path / "run"
    proc = _run(run_script, plans[("fixed", 1)], "--engine", "torch-pp", "--check",
                "--trace-dir", str(out), "--json", str(tmp_path / "summary.json"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "torch-pp   4 micro-batches of 128 rows (compute_only)" in proc.stdout
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["engine"] == "torch-pp"
    check = summary["check"]
    assert check["ok"] and check["max_rel_error"] < 1e-9 and check["loss_max_rel_error"] < 1e-9
    tp = summary["torch_pp"]
    assert tp["pad_tokens"] == tp["padded_tokens"] - sum(LENGTHS) and tp["padding_fraction"] > 0
    rows = [r for r in csv.reader(open(out / "torch-pp.csv"))]
    assert rows == tp["rows"]
    assert (out / "schedule.json").read_text() == open(plans[("fixed", 1)]).read()
    for rank in range(2):
        doc, names = _pp_ranges(out / f"rank{rank}.json")
        info = doc["distributedInfo"]
        assert (info["rank"], info["stage"], info["replica"], info["engine"]) == \
            (rank, rank, 0, "torch-pp")
        for cell in rows[rank]:  # every compute action of the CSV, once, in the file's order
            assert names.count(f"PP:{cell}") == 1, cell
        assert [n for n in names if n[4:5] in "FB" and n[5:].isdigit()] == \
            [f"PP:{c}" for c in rows[rank]]
    units = summary["unit_times"]
    assert len(units) == summary["units"] == 2 * 2 * 4


def test_two_replicas_compute_comms_run_with_check(plans, run_script, tmp_path):
    """Also --trace-unit-time cpu: every F/B range lasts its stage's thread CPU time (what
    fit-costs --trace fits on a shared CPU), the wall time kept in args.wall_us."""
    out = tmp_path / "run"
    proc = _run(run_script, plans[("balanced", 2)], "--engine", "torch-pp", "--torch-pp-format",
                "compute_comms", "--check", "--json", str(tmp_path / "summary.json"),
                "--trace-dir", str(out), "--trace-unit-time", "cpu")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    summary = json.loads((tmp_path / "summary.json").read_text())
    cpu = {(u["rank"], u["name"]): u["cpu_s"] for u in summary["unit_times"]}
    assert len(cpu) == summary["units"] and all(v > 0 for v in cpu.values())
    for rank in range(4):
        doc = json.loads((out / f"rank{rank}.json").read_text())
        assert doc["distributedInfo"]["unit_durations"] == "cpu"
        ranges = [e for e in doc["traceEvents"] if e.get("ph") == "X"
                  and re.fullmatch(r"PP:\d+[FB]\d+", str(e.get("name")))]
        assert len(ranges) == sum(1 for r, _ in cpu if r == rank)
        for e in ranges:
            assert e["dur"] == pytest.approx(cpu[(rank, e["name"])] * 1e6, abs=1e-3)
            assert e["args"]["wall_us"] >= e["dur"] * 0.5
    assert summary["world_size"] == 4 and summary["torch_pp"]["replicas"] == 2
    assert summary["torch_pp"]["format"] == "compute_comms"
    check = summary["check"]
    assert check["ok"] and check["max_rel_error"] < 1e-9, check
    assert check["parameters"] == 2 * (4 * 9 + 3)  # both replicas' gradients, after all-reduce


def test_transformers_model_runs_with_torch_pp(run_script, root, tmp_path):
    """--hf-model: transformers' Qwen2 (attention bias, embeddings tied over the first and the
    last stage) as torch's stages; backward packs in another order than the forward packs."""
    pytest.importorskip("transformers")
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(make_schedule(SEQS, FWD, BWD, stages=2)))
    proc = _run(run_script, str(path), "--engine", "torch-pp", "--hf-model",
                os.path.join(root, "tests", "runtime", "hf", "qwen2-tiny.json"), "--check",
                "--json", str(tmp_path / "summary.json"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["model_source"] == "transformers" and summary["engine"] == "torch-pp"
    assert summary["torch_pp"]["rows"][1] == ["1F0", "1F1", "1B1", "1F2", "1B0", "1B2"]
    assert summary["check"]["ok"] and summary["check"]["max_rel_error"] < 1e-9


@pytest.mark.parametrize("key", [("fixed", 1), ("balanced", 1), ("balanced", 2)])
def test_slimpack_export_writes_the_engines_csv(plans, slimpack_bin, tmp_path, key):
    """`slimpack export torch-pp` (C++) and the engine's own conversion agree cell for cell on
    compute_only, so a file exported for torchtitan runs what --engine torch-pp ran."""
    out = tmp_path / "exported.csv"
    proc = subprocess.run([slimpack_bin, "export", "torch-pp", plans[key], "--out", str(out)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    mine = torchpp_plan(load_schedule(plans[key])).csv_rows("compute_only")
    theirs = [row for row in csv.reader(io.StringIO(out.read_text())) if row]
    assert [[c for c in row if c] for row in theirs] == [[c for c in row if c] for row in mine]
