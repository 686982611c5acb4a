"""Training, not just gradients: AdamW steps on every rank against single-process training of
the same batches with the same optimizer (losses of every iteration, final parameters), a dataset
of real token ids solved into a new schedule per iteration, and --save / --resume that continue
exactly where a run stopped."""

import json
import os
import subprocess

import pytest

from schedule_maker import make_schedule

SEQS = [("s0", 40, 0), ("s1", 12, 0), ("s2", 20, 0)]
FWD = [[[("s0", 0, 16)], [("s0", 16, 40), ("s1", 0, 12)], [("s2", 0, 20)]]]
BWD = [[[("s2", 0, 20), ("s0", 24, 40)], [("s0", 8, 24), ("s1", 0, 12)], [("s0", 0, 8)]]]
TRAIN = ["--optimizer", "adamw", "--lr", "0.01", "--warmup", "2", "--clip-grad", "0.5",
         "--weight-decay", "0.1"]


def _run(run_script, *args, timeout=600):
    proc = subprocess.run([run_script, *args], capture_output=True, text=True, timeout=timeout)
    return proc.returncode, proc.stdout, proc.stderr


def _summary(path):
    with open(path) as f:
        return json.load(f)


def test_adamw_three_iterations_equal_single_process_training(run_script, tmp_path):
    sched = tmp_path / "hand.json"
    sched.write_text(json.dumps(make_schedule(SEQS, FWD, BWD, stages=2, recompute=[1, 0])))
    out = tmp_path / "s.json"
    rc, so, se = _run(run_script, str(sched), *TRAIN, "--iterations", "3", "--check",
                      "--json", str(out))
    assert rc == 0, so + se
    s = _summary(out)
    c = s["check"]
    assert c["ok"] and "AdamW" in c["reference"]
    assert c["loss_max_rel_error"] < 1e-9 and c["param_max_rel_error"] < 1e-9, c
    losses = [it["loss"] for it in s["iterations"]]
    assert losses == pytest.approx(c["reference_losses"], rel=1e-9)
    assert losses[2] < losses[0]  # the same batch three times: it learns
    # Warm-up over two steps, then the peak rate; clipping at 0.5 was active (norms above it).
    assert [it["lr"] for it in s["iterations"]] == pytest.approx([0.005, 0.01, 0.01])
    assert s["iterations"][0]["grad_norm"] > 0.5
    assert s["optimizer"]["name"] == "adamw" and s["torch_version"].startswith("2.")


def _dataset(tmp_path):
    # Token ids of 30 samples of 9..80 tokens (the tiny model's vocabulary is 512).
    samples = [[(7 * i + 3 * j) % 509 for j in range(9 + (i * 37) % 72)] for i in range(30)]
    path = tmp_path / "ids.json"
    path.write_text(json.dumps(samples))
    return str(path)


def test_dataset_save_and_resume_continue_exactly(run_script, slimpack_bin, root, tmp_path):
    data = _dataset(tmp_path)
    solve = (f"--costs {root}/samples/models/tiny-8x256.json --tp 1 --pp 2 --slice 32 "
             "--no-dp-merge")
    common = ["--dataset", data, "--samples-per-iteration", "6", "--solve-args", solve,
              *TRAIN, "--trace-ranges-only"]
    env_ok = dict(os.environ, SLIMPACK_BIN=slimpack_bin)

    def run(*args):
        proc = subprocess.run([run_script, *common, *args], capture_output=True, text=True,
                              timeout=600, env=env_ok)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        return proc

    run("--iterations", "3", "--json", str(tmp_path / "a.json"))
    run("--iterations", "2", "--save", str(tmp_path / "ckpt"), "--json", str(tmp_path / "b.json"))
    meta = json.loads((tmp_path / "ckpt" / "checkpoint.json").read_text())
    assert meta["step"] == 2 and meta["sampler"]["position"] == 2
    run("--iterations", "1", "--resume", str(tmp_path / "ckpt"), "--check", "--save",
        str(tmp_path / "ckpt"), "--json", str(tmp_path / "c.json"))
    a, b, c = (_summary(tmp_path / f"{x}.json") for x in "abc")
    # The same batches: 2 + 1 iterations are the 3 iterations of one run.
    assert [it["sequences"] for it in b["iterations"] + c["iterations"]] == \
        [it["sequences"] for it in a["iterations"]]
    assert c["iterations"][0]["loss"] == pytest.approx(a["iterations"][2]["loss"], rel=1e-12)
    assert c["first_step"] == 2 and c["check"]["ok"], c["check"]
    assert json.loads((tmp_path / "ckpt" / "checkpoint.json").read_text())["step"] == 3
    # Every iteration is its own solved schedule of the dataset's samples.
    assert len({it["schedule"] for it in a["iterations"]}) == 3


def test_training_options_are_checked(run_script, tmp_path):
    sched = tmp_path / "hand.json"
    sched.write_text(json.dumps(make_schedule(SEQS, FWD, BWD, stages=2)))
    for args, msg in (([str(sched), "--save", "x"], "--save and --resume keep a training run"),
                      ([str(sched), "--dataset", "d.json"], "not both"),
                      (["--dataset", str(sched)], "--dataset needs --solve-args"),
                      ([str(sched), "--optimizer", "adamw", "--lr", "0"], "--lr: must be positive"),
                      ([str(sched), "--optimizer", "adamw", "--resume", str(tmp_path)],
                       "checkpoint.json: --resume: cannot open")):
        rc, so, se = _run(run_script, *args)
        assert rc == 2 and msg in se and len(se.strip().splitlines()) == 1, (args, se)
