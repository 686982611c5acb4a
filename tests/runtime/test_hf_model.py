"""transformers' own model under SlimPack schedules (`--hf-model`), checked against transformers'
own forward and backward of the whole sequences: Llama (untied, no bias), Qwen2 (attention bias,
tied embeddings) and Mistral; asymmetric, regrouping plans over 1, 2 and 4 stages, recompute,
replicas, tensor parallelism, a checkpoint folder, and the refusals."""

import json
import os
import subprocess

import pytest
import torch

from schedule_maker import make_schedule
from slimpack_runtime.data import RandomTokens
from slimpack_runtime.hf_config import load_hf_model_spec
from slimpack_runtime.local import gradients, run_local
from slimpack_runtime.reference import compare_gradients, reference_training
from slimpack_runtime.schedule import parse_schedule
from slimpack_runtime.validate import validate_schedule

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hf")
LLAMA = os.path.join(HERE, "llama-tiny.json")
QWEN2 = os.path.join(HERE, "qwen2-tiny.json")
SEED = 5
TOL = 1e-12

SEQS = [("s0", 40, 0), ("s1", 12, 0), ("s2", 20, 0)]
# Forward cuts s0 at 16; backward at 8 and 24: backward pack 1 regroups forward packs 0 and 1.
FWD = [[[("s0", 0, 16)], [("s0", 16, 40), ("s1", 0, 12)], [("s2", 0, 20)]]]
BWD = [[[("s2", 0, 20), ("s0", 24, 40)], [("s0", 8, 24), ("s1", 0, 12)], [("s0", 0, 8)]]]
# Two replicas, each with its own sequences and its own asymmetric packs.
SEQS2 = SEQS + [("t0", 30, 1), ("t1", 18, 1)]
FWD2 = FWD + [[[("t0", 0, 10)], [("t0", 10, 30)], [("t1", 0, 18)]]]
BWD2 = BWD + [[[("t1", 0, 18), ("t0", 20, 30)], [("t0", 0, 20)]]]


def _mistral(tmp_path):
    """A Mistral config with no sliding window (the family's other difference from Llama)."""
    with open(os.path.join(HERE, "mistral-window.json")) as f:
        c = json.load(f)
    c["sliding_window"] = None
    path = tmp_path / "mistral.json"
    path.write_text(json.dumps(c))
    return str(path)


def _schedule(stages=2, tp=1, replicas=1, **kw):
    doc = make_schedule(SEQS2 if replicas == 2 else SEQS, FWD2 if replicas == 2 else FWD,
                        BWD2 if replicas == 2 else BWD, stages=stages, **kw)
    doc["setup"]["tp"] = tp
    return doc


def _in_process(doc, config):
    s = parse_schedule(doc, "hand.json")
    validate_schedule(s)
    spec = load_hf_model_spec(config)
    engines = run_local(s, SEED, hf=spec)
    ref = reference_training(s, SEED, [(s, RandomTokens(s.setup.model.vocab, SEED))], None,
                             hf=spec)
    err, name = compare_gradients(gradients(engines), ref.grads)
    loss = sum(e.loss_sum for e in engines if e.is_last)
    return err, name, loss, ref.losses[0], engines


@pytest.mark.parametrize("config", ["llama", "qwen2", "mistral"])
@pytest.mark.parametrize("stages", [1, 2, 4])
def test_regrouping_plan_matches_transformers(config, stages, tmp_path):
    path = {"llama": LLAMA, "qwen2": QWEN2, "mistral": None}[config] or _mistral(tmp_path)
    err, name, loss, ref_loss, engines = _in_process(_schedule(stages), path)
    assert err < TOL, f"{name} differs by {err}"
    assert loss == pytest.approx(ref_loss, rel=1e-13)
    # The layers really are transformers' classes, not a copy.
    layer = engines[0].model.layer_list()[0].layer
    assert type(layer).__module__.startswith("transformers.models.")


def test_recompute_and_tied_embeddings_over_stages():
    err, name, _, _, engines = _in_process(_schedule(2, recompute=[1, 2]), QWEN2)
    assert err < TOL, f"{name} differs by {err}"
    # The last stage's LM head is a copy of the embedding, reported under its name.
    assert "model.embed_tokens.weight" in dict(engines[1].model.named_parameters())
    assert "lm_head.weight" not in dict(engines[1].model.named_parameters())


def test_replicas_in_process():
    err, name, _, _, _ = _in_process(_schedule(2, replicas=2), LLAMA)
    assert err < TOL, f"{name} differs by {err}"


def _write(tmp_path, doc, name="s.json"):
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


def _run(run_script, *args, expect=0):
    proc = subprocess.run([run_script, *args], capture_output=True, text=True, timeout=600)
    assert proc.returncode == expect, proc.stdout + proc.stderr
    return proc


# Qwen2 with t = 2 and d = 2 together (tied embeddings, attention bias) is
# test_tensor_parallel_training_with_replicas; Qwen2 with t = 2 from a solved plan is
# test_solve_hf_config_then_run_hf_model.
@pytest.mark.parametrize("config,stages,tp,replicas", [
    ("llama", 2, 2, 1),
    ("qwen2", 4, 1, 1),
])
def test_distributed_run_checks_against_transformers(run_script, tmp_path, config, stages, tp,
                                                     replicas):
    cfg = {"llama": LLAMA, "qwen2": QWEN2}[config]
    schedule = _write(tmp_path, _schedule(stages, tp, replicas))
    out = tmp_path / "summary.json"
    _run(run_script, schedule, "--hf-model", cfg, "--check", "--json", str(out))
    summary = json.loads(out.read_text())
    assert summary["model_source"] == "transformers"
    assert summary["world_size"] == stages * tp * replicas
    assert summary["tp"] == tp
    assert "transformers'" in summary["check"]["reference"]
    assert summary["check"]["ok"] and summary["check"]["max_rel_error"] < 1e-12


def test_tensor_parallel_training_with_replicas(run_script, tmp_path):
    """t = 2 and d = 2 (8 processes), three AdamW steps with clipping active: the global norm
    counts a replicated tensor once, the tied embedding once."""
    schedule = _write(tmp_path, _schedule(2, 2, 2))
    out = tmp_path / "summary.json"
    _run(run_script, schedule, "--hf-model", QWEN2, "--check", "--optimizer", "adamw",
         "--iterations", "3", "--clip-grad", "0.05", "--json", str(out))
    summary = json.loads(out.read_text())
    assert summary["world_size"] == 8
    assert all(it["grad_norm"] > 0.05 for it in summary["iterations"])  # clipping was active
    assert summary["check"]["ok"] and summary["check"]["param_max_rel_error"] < 1e-12


def test_tensor_parallel_builtin_model_and_traces(run_script, tmp_path):
    """The built-in model under t = 2: exact, and the all-reduces are ranges of their own."""
    schedule = _write(tmp_path, _schedule(2, 2))
    traces = tmp_path / "traces"
    out = tmp_path / "summary.json"
    _run(run_script, schedule, "--check", "--trace-dir", str(traces), "--json", str(out))
    summary = json.loads(out.read_text())
    assert summary["model_source"] == "built-in" and summary["check"]["ok"]
    # One file per pipeline rank (what fit-costs and --check-trace map), tensor rank 1 apart.
    assert sorted(os.listdir(traces)) == ["rank0.json", "rank1.json", "schedule.json", "tp1"]
    assert sorted(os.listdir(traces / "tp1")) == ["rank0.json", "rank1.json"]
    with open(traces / "tp1" / "rank0.json") as f:
        doc = json.load(f)
    names = {e.get("name") for e in doc["traceEvents"]}
    assert {"TP all-reduce fwd", "TP all-reduce bwd", "F1", "B1"} <= names
    info = doc["distributedInfo"]
    assert info["tensor_rank"] == 1 and info["tp"] == 2 and info["stage"] == 0
    assert info["rank"] == 0 and info["process"] == 1


def _save_checkpoint(config, folder):
    """A checkpoint folder as transformers writes it (save_pretrained, safetensors)."""
    from transformers import AutoConfig, AutoModelForCausalLM

    with open(config) as f:
        c = json.load(f)
    cfg = AutoConfig.for_model(c.pop("model_type"), **{k: v for k, v in c.items()
                                                        if k != "architectures"})
    torch.manual_seed(11)
    model = AutoModelForCausalLM.from_config(cfg, dtype=torch.float64)
    model.save_pretrained(folder)
    return model


def test_checkpoint_folder_weights_are_used(run_script, tmp_path):
    folder = tmp_path / "ckpt"
    model = _save_checkpoint(LLAMA, folder)
    assert (folder / "model.safetensors").exists()
    doc = _schedule(2)
    schedule = _write(tmp_path, doc)
    out = tmp_path / "summary.json"
    _run(run_script, schedule, "--hf-model", str(folder), "--check", "--seed", str(SEED),
         "--json", str(out))
    summary = json.loads(out.read_text())
    assert summary["check"]["ok"]
    # The run's loss is that of the saved weights, computed here by transformers alone.
    s = parse_schedule(doc, "hand.json")
    tokens = RandomTokens(s.setup.model.vocab, SEED)
    want = 0.0
    with torch.no_grad():
        for q in s.sequences.values():
            ids = tokens.ids(q)
            logits = model(input_ids=ids[:-1][None]).logits[0]
            want += float(torch.nn.functional.cross_entropy(logits, ids[1:], reduction="sum"))
    want /= s.total_tokens()
    assert summary["iterations"][0]["loss"] == pytest.approx(want, rel=1e-12)


def _one_line_error(proc, *words):
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    for w in words:
        assert w in lines[0], lines[0]


def test_refusals(run_script, tmp_path):
    schedule = _write(tmp_path, _schedule(2))
    bad = tmp_path / "gpt2.json"
    bad.write_text(json.dumps({"model_type": "gpt2", "n_embd": 32}))
    _one_line_error(_run(run_script, schedule, "--hf-model", str(bad), expect=2),
                    "gpt2.json", "model_type", "gpt2")
    # Heads that do not divide by t.
    with open(LLAMA) as f:
        c = json.load(f)
    c["num_key_value_heads"] = 1
    one_kv = tmp_path / "one-kv.json"
    one_kv.write_text(json.dumps(c))
    doc = _schedule(2, tp=2)
    doc["setup"]["model"]["kv_heads"] = 1
    _one_line_error(_run(run_script, _write(tmp_path, doc, "tp2.json"), "--hf-model",
                         str(one_kv), expect=2), "kv_heads", "tp = 2")
    # A schedule planned for another model.
    c = json.load(open(LLAMA))
    c["hidden_size"] = 64
    wide = tmp_path / "wide.json"
    wide.write_text(json.dumps(c))
    _one_line_error(_run(run_script, schedule, "--hf-model", str(wide), expect=2),
                    "setup.model.hidden", "hidden_size = 64")
    # A sliding window shorter than the longest sequence (40 tokens).
    _one_line_error(_run(run_script, schedule, "--hf-model", os.path.join(HERE,
                         "mistral-window.json"), expect=2), "sliding_window", "40 tokens")
    # A missing field.
    c = json.load(open(LLAMA))
    del c["num_hidden_layers"]
    missing = tmp_path / "missing.json"
    missing.write_text(json.dumps(c))
    _one_line_error(_run(run_script, schedule, "--hf-model", str(missing), expect=2),
                    "missing.json", "num_hidden_layers: missing")


def test_checkpoint_that_does_not_match_the_config(run_script, tmp_path):
    folder = tmp_path / "ckpt"
    _save_checkpoint(LLAMA, folder)
    c = json.load(open(folder / "config.json"))
    c["intermediate_size"] = 96  # the weights keep 64
    (folder / "config.json").write_text(json.dumps(c))
    doc = _schedule(2)
    doc["setup"]["model"]["ffn"] = 96
    proc = _run(run_script, _write(tmp_path, doc), "--hf-model", str(folder), expect=2)
    _one_line_error(proc, "model.safetensors", "mlp.", "[64, 32]", "[96, 32]")


# Every shipped config is solved and run in process below (test_shipped_sample_configs_...).
@pytest.mark.parametrize("config,tp", [("qwen2", 2)])
def test_solve_hf_config_then_run_hf_model(slimpack_bin, run_script, tmp_path, config, tp):
    """The issue's acceptance: `slimpack solve --hf-config` plans for the config, and
    `slimpack-run --hf-model` runs that plan (asymmetric: 4 forward, 3 backward packs) exactly."""
    cfg = {"llama": LLAMA, "qwen2": QWEN2}[config]
    lengths = tmp_path / "lengths.json"
    lengths.write_text("[60, 30, 100, 20, 45]")
    schedule = tmp_path / "s.json"
    proc = subprocess.run([slimpack_bin, "solve", "--hf-config", cfg, "--lengths", str(lengths),
                           "--pp", "2", "--tp", str(tp), "--slice", "32", "--packs", "4",
                           "--no-dp-merge", "--out", str(tmp_path / "plan.json"),
                           "--schedule-out", str(schedule)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(schedule.read_text())
    assert doc["setup"]["model"]["source"] == f"hf-config:{cfg}" and doc["setup"]["tp"] == tp
    rep = doc["replicas"][0]
    assert len(rep["forward_packs"]) != len(rep["backward_packs"])  # asymmetric
    out = tmp_path / "summary.json"
    _run(run_script, str(schedule), "--hf-model", cfg, "--check", "--json", str(out))
    summary = json.loads(out.read_text())
    assert summary["check"]["ok"] and summary["world_size"] == 2 * tp


SAMPLES = os.path.join(os.path.dirname(os.path.dirname(HERE)), os.pardir, "samples", "hf")


@pytest.mark.parametrize("name", ["llama-tiny", "qwen2-tiny", "mistral-tiny", "llama-wide-heads"])
def test_shipped_sample_configs_plan_and_run(slimpack_bin, run_script, tmp_path, name):
    """Every small config of samples/hf: planned by `slimpack solve --hf-config`, run in one
    process against transformers (head_dim other than hidden / heads included)."""
    cfg = os.path.normpath(os.path.join(SAMPLES, f"{name}.json"))
    lengths = tmp_path / "lengths.json"
    lengths.write_text("[90, 40, 70]")
    schedule = tmp_path / "s.json"
    proc = subprocess.run([slimpack_bin, "solve", "--hf-config", cfg, "--lengths", str(lengths),
                           "--pp", "2", "--tp", "1", "--slice", "32", "--packs", "3",
                           "--no-dp-merge", "--out", os.devnull, "--schedule-out", str(schedule)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    out = tmp_path / "summary.json"
    _run(run_script, str(schedule), "--hf-model", cfg, "--in-process", "--check", "--json", str(out))
    assert json.loads(out.read_text())["check"]["max_rel_error"] < 1e-12


def test_builtin_model_refuses_a_schedule_of_another_shape(run_script, tmp_path):
    """A plan for a model with tied embeddings or attention bias is not run as the built-in
    model (which has neither): the message points to --hf-model."""
    doc = _schedule(2)
    doc["setup"]["model"]["tied_embeddings"] = True
    _one_line_error(_run(run_script, _write(tmp_path, doc), expect=2), "tied embeddings",
                    "--hf-model")


def test_kv_heads_default_of_each_family(tmp_path):
    """Without num_key_value_heads transformers builds Mistral with 8 and Qwen2 with 32 K/V heads
    (the planner's defaults too), Llama with one per attention head."""
    for family, want in (("mistral", 8), ("qwen2", 32), ("llama", 32)):
        path = tmp_path / f"{family}.json"
        path.write_text(json.dumps({"model_type": family, "hidden_size": 2048,
                                    "intermediate_size": 4096, "num_hidden_layers": 2,
                                    "num_attention_heads": 32, "vocab_size": 100,
                                    "sliding_window": None}))
        assert load_hf_model_spec(str(path)).kv_heads == want
