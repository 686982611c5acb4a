"""What slimpack-run refuses, and how: exit 2, one line naming the file or field and the reason,
no traceback, before any process starts (these run the command line in this process)."""

import copy
import json

import pytest

from schedule_maker import make_schedule
from slimpack_runtime.cli import main

SEQS = [("s0", 40, 0), ("s1", 12, 0)]
FWD = [[[("s0", 0, 16)], [("s0", 16, 40), ("s1", 0, 12)]]]
BWD = [[[("s1", 0, 12), ("s0", 24, 40)], [("s0", 0, 24)]]]


@pytest.fixture
def doc():
    return make_schedule(SEQS, FWD, BWD, stages=2)


def _run(tmp_path, capsys, doc_or_text, *extra):
    path = tmp_path / "sched.json"
    path.write_text(doc_or_text if isinstance(doc_or_text, str) else json.dumps(doc_or_text))
    code = main([str(path), *extra])
    err = capsys.readouterr().err
    return code, err, str(path)


def _refused(tmp_path, capsys, doc, *extra):
    code, err, path = _run(tmp_path, capsys, doc, *extra)
    assert code == 2, err
    assert "Traceback" not in err
    assert err.count("\n") == 1, err
    return err


def test_valid_schedule_runs_in_process(tmp_path, capsys, doc):
    code, err, _ = _run(tmp_path, capsys, doc, "--in-process", "--check")
    assert code == 0, err


@pytest.mark.parametrize("field,value,words", [
    ("tp", 2, ["$.setup.tp", "one process per tensor rank", "--in-process"]),
    ("cp", 2, ["$.setup.cp", "context parallelism"]),
    ("schedule", "interleaved", ["$.setup.schedule", "interleaved"]),
    ("model", None, ["$.setup.model", "no model"]),
])
def test_unsupported_setup(tmp_path, capsys, doc, field, value, words):
    doc["setup"][field] = value
    err = _refused(tmp_path, capsys, doc, "--in-process")
    assert err.startswith("slimpack-run: ") and "sched.json: " in err
    for w in words:
        assert w in err


def test_dp_merge_shards(tmp_path, capsys, doc):
    doc["replicas"][0]["forward_packs"][0]["segments"][0]["shards"] = 2
    err = _refused(tmp_path, capsys, doc)
    assert "$.replicas[0].forward_packs[0].segments[0].shards" in err and "DP-Merge" in err


def test_structure_errors_name_the_path(tmp_path, capsys, doc):
    bad = copy.deepcopy(doc)
    bad["ranks"][1]["actions"][1]["op"] = "FWD"
    assert '$.ranks[1].actions[1].op: unknown action "FWD"' in _refused(tmp_path, capsys, bad)
    bad = copy.deepcopy(doc)
    bad["sequences"][0]["atoms"] = [0, 30, 16, 40]
    assert "$.sequences[0].atoms[2]" in _refused(tmp_path, capsys, bad)
    bad = copy.deepcopy(doc)
    del bad["ranks"][1]
    assert "rank 1 is missing" in _refused(tmp_path, capsys, bad)


def test_not_a_schedule(tmp_path, capsys):
    assert "JSON error" in _refused(tmp_path, capsys, "{not json")
    assert "plan file" in _refused(tmp_path, capsys, {"format": "slimpack-plan", "version": 1})
    code = main([str(tmp_path / "missing.json")])
    err = capsys.readouterr().err
    assert code == 2 and "missing.json: cannot open" in err


def test_backward_before_forward(tmp_path, capsys, doc):
    acts = doc["ranks"][1]["actions"]  # last stage: RECV_F 0, F 0, B 0, ...: move B 0 first
    b0 = next(a for a in acts if a["op"] == "B")
    acts.remove(b0)
    acts.insert(0, b0)
    err = _refused(tmp_path, capsys, doc)
    assert "$.ranks[1].actions[0]" in err and "not forwarded" in err


def test_wrong_backward_order_breaks_causality(tmp_path, capsys):
    # Backward packs in the wrong order: s0's early atoms before its later ones.
    bwd = [[[("s0", 0, 24)], [("s1", 0, 12), ("s0", 24, 40)]]]
    err = _refused(tmp_path, capsys, make_schedule(SEQS, FWD, bwd, stages=2, order="gpipe"))
    assert "slice-level causality" in err


def test_deadlock_is_refused(tmp_path, capsys, doc):
    # Stage 0 waits for the gradients of backward pack 0 before sending forward pack 0.
    acts = doc["ranks"][0]["actions"]
    recv = next(a for a in acts if a["op"] == "RECV_B")
    acts.remove(recv)
    acts.insert(1, recv)
    err = _refused(tmp_path, capsys, doc)
    assert "$.ranks[0].actions[1]: the schedule deadlocks: rank 0 waits at RECV_B 0" in err


def test_wrong_peer_and_tokens(tmp_path, capsys, doc):
    bad = copy.deepcopy(doc)
    send = next(a for a in bad["ranks"][0]["actions"] if a["op"] == "SEND_F")
    send["peer"] = 0
    assert ".peer" in _refused(tmp_path, capsys, bad)
    bad = copy.deepcopy(doc)
    send = next(a for a in bad["ranks"][0]["actions"] if a["op"] == "SEND_F")
    send["tokens"] += 1
    assert ".tokens" in _refused(tmp_path, capsys, bad)


def test_option_errors(tmp_path, capsys, doc):
    err = _refused(tmp_path, capsys, doc, "--check", "--dtype", "float32")
    assert "--check needs --dtype float64" in err
    with pytest.raises(SystemExit) as e:
        main(["--device", "tpu", "x.json"])
    assert e.value.code == 2


def test_cuda_without_gpu(tmp_path, capsys, doc):
    import torch

    if torch.cuda.is_available():
        pytest.skip("a GPU is present")
    assert "no CUDA device" in _refused(tmp_path, capsys, doc, "--device", "cuda")


def test_model_too_big_for_this_machine(tmp_path, capsys, doc):
    doc["setup"]["model"].update({"name": "huge", "layers": 4, "hidden": 16384, "ffn": 65536,
                                  "heads": 128, "kv_heads": 8, "vocab": 256000})
    err = _refused(tmp_path, capsys, doc)
    assert "$.setup.model" in err and 'model "huge" needs about' in err


@pytest.mark.parametrize("name,field", [
    ("asymmetric-example.schedule.json", "$.setup.model"),  # explicit times, no model
    ("chat-sft-p2.schedule.json", "$.setup.tp"),  # Llama-3-8B at t = 8
])
def test_shipped_sample_schedules_are_refused_by_name(root, capsys, name, field):
    code = main([f"{root}/samples/schedules/{name}", "--in-process"])
    err = capsys.readouterr().err
    assert code == 2 and f"{name}: {field}: " in err and "Traceback" not in err
