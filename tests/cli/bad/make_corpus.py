#!/usr/bin/env python3
"""Writes the malformed-input corpus of tests/cli/bad/. The files are committed; run this
again only to change them: python3 tests/cli/bad/make_corpus.py. Each file is one way a file of its
kind can be wrong (or a valid edge case, under valid/); cases.cmake says what the CLI must answer."""
import copy
import gzip
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def write(rel, data):
    path = os.path.join(HERE, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(path, "wb") as f:
        f.write(data)


def dumps(obj):
    return json.dumps(obj, indent=2) + "\n"


DEEP = "[" * 100000  # 100k levels of nesting (cut short: the depth limit comes first)
BINARY = bytes(range(256)) * 4
UTF16 = lambda text: "\ufeff".encode("utf-16-le") + text.encode("utf-16-le")  # noqa: E731


def common(kind, ext, valid_text):
    """The cases every text format shares: truncated, binary, empty, UTF-16, NUL, deep nesting."""
    if ext != ".csv":  # any prefix of a CSV file is a CSV file: truncation cannot be told
        write(f"{kind}/truncated{ext}", valid_text[: len(valid_text) // 2])
    write(f"{kind}/binary{ext}", BINARY)
    write(f"{kind}/empty{ext}", "")
    write(f"{kind}/utf16{ext}", UTF16(valid_text))
    cut = valid_text.index("\n", len(valid_text) // 3) + 1
    write(f"{kind}/nul{ext}", valid_text[:cut] + "\0" + valid_text[cut:])


# ---- length files (slimpack info FILE) ----
csv = "length\n1024\n2048\n4096\n"
common("lengths", ".csv", csv)
write("lengths/deep.json", DEEP)
write("lengths/truncated.json", "[1024, 2048, 40")
write("lengths/truncated.jsonl", '{"length": 1024}\n{"length": 2048}\n{"length": 20')
write("lengths/empty.jsonl", "\n\n")
write("lengths/utf16.json", UTF16("[1024, 2048]"))
write("lengths/nul.jsonl", '{"length": 1024}\n{"length": \0 2048}\n')
write("lengths/huge.json", "[1024, 1e999]")
write("lengths/huge-integer.json", '{"lengths": [1024, 123456789012345678901234567890]}')
write("lengths/nonfinite.csv", "1024\ninf\n")
write("lengths/nan.csv", "length\n1024\nNaN\n")
write("lengths/negative.json", '{"lengths": [1024, -5]}')
write("lengths/zero.csv", "1024\n0\n")
write("lengths/zero.jsonl", '{"num_tokens": 1024}\n{"num_tokens": 0}\n')
write("lengths/fraction.csv", "1024\n1024.5\n")
write("lengths/wrong-type.json", '{"lengths": "1024, 2048"}')
write("lengths/wrong-type.jsonl", '{"length": 1024}\n{"length": [2048]}\n')
write("lengths/duplicate-key.json", '{"lengths": [1024], "lengths": [2048]}')
write("lengths/absurd-count.csv", "length,count\n1024,1000000000000\n")
write("lengths/absurd-count.json", '{"histogram": [{"length": 1024, "count": 1e12}]}')
write("lengths/absurd-total.csv", "length,count\n1024,16000000\n2048,16000000\n")
write("lengths/absurd-length.csv", "1024\n1000000000\n")
write("lengths/ragged.csv", "length,count\n1024,3\n2048\n")
write("lengths/unterminated-quote.csv", 'length\n"1024\n')
# valid edge cases: CRLF line ends, a UTF-8 byte-order mark (the 300k-line files are generated at
# test time by cases.cmake, not committed)
write("valid/crlf.csv", "length,count\r\n1024,2\r\n2048,1\r\n")
write("valid/bom.csv", "\ufefflength\n1024\n2048\n")
write("valid/bom.json", "\ufeff[1024, 2048, 4096]")
write("valid/crlf.jsonl", '{"seq_len": 1024}\r\n{"seq_len": 2048}\r\n')

# ---- plans (slimpack simulate --plan FILE) ----
plan = {
    "format": "slimpack-plan", "version": 1, "stages": 2, "schedule": "1f1b",
    "sequences": [{"id": "a", "length": 2048}, {"id": "b", "length": 1024}],
    "forward_packs": [{"segments": [{"seq": "a"}], "time": 2.0},
                      {"segments": [{"seq": "b"}], "time": 1.0}],
    "backward_packs": [{"segments": [{"seq": "a"}], "time": 4.0},
                       {"segments": [{"seq": "b"}], "time": 2.0}],
}
plan_text = dumps(plan)
common("plans", ".json", plan_text)
write("plans/deep.json", '{"format": "slimpack-plan", "extra": ' + DEEP + "}")


def plan_with(edit, name):
    p = copy.deepcopy(plan)
    edit(p)
    write(f"plans/{name}.json", dumps(p))


write("plans/huge-number.json", plan_text.replace('"time": 2.0', '"time": 1e999'))
write("plans/nonfinite.json", plan_text.replace('"time": 2.0', '"time": NaN'))
plan_with(lambda p: p["sequences"][1].update(length=-5), "negative-length")
plan_with(lambda p: p["sequences"][1].update(length=0), "zero-length")
plan_with(lambda p: p.update(stages="two"), "wrong-type")
plan_with(lambda p: p["forward_packs"][0]["segments"][0].update(begin="0"), "wrong-type-segment")
plan_with(lambda p: p["sequences"][1].update(id="a"), "duplicate-id")
write("plans/duplicate-key.json", plan_text.replace('"stages": 2,', '"stages": 2, "stages": 3,'))
plan_with(lambda p: p["forward_packs"][1]["segments"].append({"seq": "a", "begin": 1024, "end": 2048}),
          "overlapping")
plan_with(lambda p: p["forward_packs"][0]["segments"].__setitem__(0, {"seq": "a", "begin": 0, "end": 4096}),
          "segment-past-end")
plan_with(lambda p: p.update(schedule="zigzag"), "unknown-schedule")
plan_with(lambda p: p.update(stages=1000000000), "absurd-stages")
plan_with(lambda p: p.update(schedule="interleaved", vchunks=1000000000), "absurd-vchunks")
plan_with(lambda p: p.update(warmup_extra=1000000000), "absurd-warmup")
plan_with(lambda p: p["sequences"][0].update(length=10**12), "absurd-length")
plan_with(lambda p: p["forward_packs"][0].update(time=-1.0), "negative-time")
plan_with(lambda p: p["forward_packs"][0].update(stage_times=[1.0]), "stage-times-count")
plan_with(lambda p: p["forward_packs"][0]["segments"][0].update(shards=2, shard=5), "bad-shard")
plan_with(lambda p: p.update(version=2), "unknown-version")
plan_with(lambda p: p.pop("sequences"), "missing-sequences")
write("valid/crlf-plan.json", plan_text.replace("\n", "\r\n"))
write("valid/bom-plan.json", "\ufeff" + plan_text)

# ---- schedules (slimpack simulate --plan FILE) ----
with open(os.path.join(HERE, "../../../samples/schedules/asymmetric-example.schedule.json")) as f:
    schedule_text = f.read()
schedule = json.loads(schedule_text)
common("schedules", ".json", schedule_text)


def schedule_with(edit, name):
    s = copy.deepcopy(schedule)
    edit(s)
    write(f"schedules/{name}.json", dumps(s))


schedule_with(lambda s: s.update(version=2), "unknown-version")
schedule_with(lambda s: s.pop("setup"), "missing-setup")
schedule_with(lambda s: s["setup"].update(stages="four"), "wrong-type-stages")
schedule_with(lambda s: s["setup"].update(replicas=2), "replica-count")
schedule_with(lambda s: s["ranks"][1]["actions"][1].update(op="FWD"), "unknown-action")
schedule_with(lambda s: s["ranks"][1]["actions"].reverse(), "reordered-actions")
schedule_with(lambda s: s["ranks"][1]["actions"][0].update(peer=3), "wrong-peer")
# A rank's first RECV_F left out: named as the action it is, not as a field the next one lacks.
schedule_with(lambda s: s["ranks"][1]["actions"].pop(0), "missing-recv-f")
schedule_with(lambda s: s["ranks"].pop(), "missing-rank")
schedule_with(lambda s: s["sequences"][0].update(atoms=[0, 16384]), "wrong-atoms")
schedule_with(lambda s: s["replicas"][0]["backward_packs"][0].update(frees=[]), "wrong-frees")
schedule_with(lambda s: s["replicas"][0]["forward_packs"][0]["segments"][0].update(end=99999), "segment-past-end")
schedule_with(lambda s: s["setup"].update(costs={"model": "gpt-5"}), "unknown-model")
schedule_with(lambda s: s["setup"].update(schedule="interleaved", vchunks=2), "interleaved")

# ---- traces (slimpack trace info FILE) ----
trace = {"traceEvents": [
    {"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": "rank 0"}},
    {"ph": "X", "name": "forward", "cat": "user_annotation", "pid": 1, "tid": 1, "ts": 0, "dur": 5},
    {"ph": "B", "name": "step", "pid": 1, "tid": 1, "ts": 6},
    {"ph": "E", "pid": 1, "tid": 1, "ts": 9},
]}
trace_text = dumps(trace)
common("traces", ".json", trace_text)
write("traces/deep.json", '{"traceEvents": [], "otherData": ' + DEEP + "}")
write("traces/huge-ts.json", trace_text.replace('"ts": 0', '"ts": 1e999'))
write("traces/negative-dur.json", trace_text.replace('"dur": 5', '"dur": -5'))
# A double, but no time: the span it gives printed as 300 digits.
write("traces/absurd-ts.json", trace_text.replace('"ts": 6', '"ts": 1e300'))
write("traces/absurd-dur.json", trace_text.replace('"dur": 5', '"dur": 1e300'))
write("traces/wrong-type.json", trace_text.replace('"ts": 6', '"ts": "6"'))
write("traces/not-a-trace.json", '{"lanes": []}')
write("traces/events-not-array.json", '{"traceEvents": {"ph": "X"}}')
write("traces/end-before-begin.json", trace_text.replace('"ts": 9', '"ts": 1'))
compressed = gzip.compress(trace_text.encode(), mtime=0)
write("traces/truncated.json.gz", compressed[: len(compressed) // 2])
write("traces/not-gzip.json.gz", b"\x1f\x8b" + BINARY)
# 20 MiB of whitespace in 20 KiB: inflates ~1000x, past the reader's first buffer (a crash a user reported)
write("traces/compressible-cut.json.gz",
      gzip.compress((trace_text[:-3] + " " * (20 << 20) + trace_text[-3:]).encode(), 9, mtime=0)[:12000])
write("traces/garbage-after.json", trace_text + "xyz")
write("valid/compressible.json.gz",
      gzip.compress(('{"traceEvents": [' + " " * (20 << 20) + json.dumps(trace["traceEvents"])[1:] + "}")
                    .encode(), 9, mtime=0))
write("valid/crlf-trace.json", trace_text.replace("\n", "\r\n"))

# ---- cost profiles and measured cost CSV (slimpack fit-costs FILE) ----
cost_csv = ("kind,tokens,pairs,seconds\nforward,1024,524800,0.0009\nforward,2048,2098176,0.0018\n"
            "forward,4096,8390656,0.0040\nbackward,1024,524800,0.0019\n"
            "backward,2048,2098176,0.0037\nbackward,4096,8390656,0.0082\n")
common("costs", ".csv", cost_csv)
write("costs/huge.csv", cost_csv.replace("0.0018", "1e999"))
write("costs/nan.csv", cost_csv.replace("0.0018", "nan"))
write("costs/negative.csv", cost_csv.replace("0.0018", "-0.0018"))
write("costs/unknown-kind.csv", cost_csv.replace("backward,2048", "sideways,2048"))
write("costs/no-header.csv", "forward,1024,524800,0.0009\n")
write("costs/ragged.csv", cost_csv.replace("forward,2048,2098176,0.0018", "forward,2048,0.0018"))
write("costs/too-few.csv", "kind,tokens,pairs,seconds\nforward,1024,524800,0.0009\n")
write("costs/same-shape.csv", "kind,tokens,pairs,seconds\n" + "forward,1024,524800,0.0009\n" * 5)
profile = {"format": "slimpack-cost-profile", "version": 1, "device": "test",
           "samples": [{"kind": "forward", "tokens": 1024, "pairs": 524800, "seconds": 0.0009},
                       {"kind": "forward", "tokens": 2048, "pairs": 2098176, "seconds": 0.0018},
                       {"kind": "forward", "tokens": 4096, "pairs": 8390656, "seconds": 0.0040}]}
ptext = dumps(profile)
write("costs/truncated.profile.json", ptext[: len(ptext) // 2])
write("costs/deep.profile.json", '{"format": "slimpack-cost-profile", "x": ' + DEEP + "}")
write("costs/huge.profile.json", ptext.replace("0.0018", "1e999"))
write("costs/wrong-type.profile.json", ptext.replace('"tokens": 2048', '"tokens": "2048"'))
write("costs/duplicate-key.profile.json", ptext.replace('"version": 1,', '"version": 1, "version": 1,'))
write("costs/wrong-format.profile.json", ptext.replace("slimpack-cost-profile", "slimpack-plan"))
write("costs/empty.profile.json", '{"format": "slimpack-cost-profile", "version": 1}')
write("valid/crlf-costs.csv", cost_csv.replace("\n", "\r\n"))

# ---- cost overrides (slimpack simulate --costs FILE) ----
over = {"model": {"preset": "llama-3-8b", "layers": 32}, "gpu": "h100-sxm",
        "parallel": {"pp": 4, "tp": 8}}
otext = dumps(over)
common("overrides", ".json", otext)
write("overrides/deep.json", '{"description": ' + DEEP + "}")
write("overrides/huge.json", otext.replace('"layers": 32', '"layers": 1e999'))
write("overrides/negative.json", otext.replace('"layers": 32', '"layers": -32'))
write("overrides/zero-flops.json", '{"gpu": {"preset": "h100-sxm", "peak_flops": 0}}')
write("overrides/wrong-type.json", otext.replace('"pp": 4', '"pp": "4"'))
write("overrides/unknown-key.json", otext.replace('"layers"', '"layer"'))
write("overrides/unknown-model.json", '{"model": "gpt-5"}')
write("overrides/absurd-layers.json", otext.replace('"layers": 32', '"layers": 1000000000'))
write("overrides/absurd-pp.json", otext.replace('"pp": 4', '"pp": 1000000000'))
write("overrides/negative-coeffs.json", '{"coeffs": {"forward": {"kappa": -1}}}')
write("overrides/duplicate-key.json", '{"gpu": "h100-sxm", "gpu": "h200"}')

# ---- Hugging Face config.json (slimpack solve --hf-config FILE) ----
hf = {"model_type": "llama", "hidden_size": 256, "intermediate_size": 688,
      "num_hidden_layers": 8, "num_attention_heads": 8, "num_key_value_heads": 4,
      "vocab_size": 2048, "tie_word_embeddings": False}
htext = dumps(hf)
hf_without = lambda key: dumps({k: v for k, v in hf.items() if k != key})  # noqa: E731
hf_with = lambda **fields: dumps({**hf, **fields})  # noqa: E731
common("hf", ".json", htext)
write("hf/deep.json", '{"model_type": ' + DEEP + "}")
write("hf/huge.json", htext.replace('"vocab_size": 2048', '"vocab_size": 1e999'))
write("hf/duplicate-key.json", htext.replace('"model_type": "llama",', '"model_type": "llama", "model_type": "qwen2",'))
write("hf/not-an-object.json", "[256, 688]\n")
write("hf/unknown-family.json", hf_with(model_type="gpt2"))
write("hf/missing-type.json", hf_without("model_type"))
write("hf/missing-layers.json", hf_without("num_hidden_layers"))
write("hf/missing-vocab.json", hf_without("vocab_size"))
write("hf/wrong-type.json", htext.replace('"hidden_size": 256', '"hidden_size": "256"'))
write("hf/wrong-type-tied.json", hf_with(tie_word_embeddings="yes"))
write("hf/fraction.json", hf_with(intermediate_size=688.5))
write("hf/zero-heads.json", hf_with(num_attention_heads=0))
write("hf/absurd-layers.json", hf_with(num_hidden_layers=1000000000))
write("hf/kv-heads.json", hf_with(num_key_value_heads=3))
write("hf/indivisible-hidden.json", hf_with(hidden_size=250))
write("hf/gelu.json", hf_with(hidden_act="gelu"))
write("hf/mlp-bias.json", hf_with(mlp_bias=True))

# ---- sessions (explorer only: File > Open, drop) ----
session = {"format": "slimpack-session", "version": 1,
           "workload": {"preset": "chat-sft", "seed": 7, "batch_tokens": 65536},
           "config": {"pp": 2, "dp": 1, "tp": 8, "strategy": "sliced"},
           "view": {"t0": 0.0, "t1": 0.0, "selected_sequence": -1, "saved_views": []}}
stext = dumps(session)
common("sessions", ".slimpack", stext)
write("sessions/deep.slimpack", '{"format": "slimpack-session", "version": 1, "x": ' + DEEP + "}")
write("sessions/huge.slimpack", stext.replace('"t1": 0.0', '"t1": 1e999'))
write("sessions/negative.slimpack", stext.replace('"pp": 2', '"pp": -2'))
write("sessions/wrong-type.slimpack", stext.replace('"seed": 7', '"seed": "7"'))
write("sessions/unknown-schedule.slimpack", stext.replace('"pp": 2', '"pp": 2, "schedule": "zigzag"'))
write("sessions/absurd-pp.slimpack", stext.replace('"pp": 2', '"pp": 1000000000'))
write("sessions/absurd-batch.slimpack", stext.replace('"batch_tokens": 65536', '"batch_tokens": 1000000000000'))
write("sessions/overflow-int.slimpack", stext.replace('"pp": 2', '"pp": 4294967298'))
write("sessions/missing-plan.slimpack", stext.replace('"version": 1,', '"version": 1, "plan_file": "no/such/plan.json",'))
write("sessions/bad-plan.slimpack", stext.replace('"version": 1,', '"version": 1, "plan_file": "tests/cli/bad/plans/huge-number.json",'))
write("sessions/bad-lengths.slimpack", stext.replace('"preset": "chat-sft"', '"file": "tests/cli/bad/lengths/absurd-count.csv"'))
write("sessions/wrong-format.slimpack", stext.replace("slimpack-session", "slimpack-plan"))

# ---- runs (simulate --plan tests/cli/inputs/calibrate-plan.json --check-trace FILE) ----
# Traces that read fine alone but cannot be a rank of that plan's run (2 stages, 1 replica).
run = {"distributedInfo": {"rank": 7, "world_size": 8}, "traceEvents": [
    {"ph": "X", "name": "F1", "cat": "user_annotation", "pid": 1, "tid": 1, "ts": 0, "dur": 5},
    {"ph": "X", "name": "wait RECV_B1", "cat": "user_annotation", "pid": 1, "tid": 1, "ts": 5, "dur": 2},
    {"ph": "X", "name": "B1", "cat": "user_annotation", "pid": 1, "tid": 1, "ts": 7, "dur": 9},
]}
rtext = dumps(run)
write("runs/rank-outside-plan.json", rtext)
write("runs/negative-rank.json", rtext.replace('"rank": 7', '"rank": -1'))
write("runs/rank-not-integer.json", rtext.replace('"rank": 7', '"rank": "1"'))
write("runs/info-not-object.json", dumps(dict(run, distributedInfo=3)))
write("runs/only-waits.json", rtext.replace('"rank": 7', '"rank": 0').replace('"F1"', '"wait RECV_F1"')
      .replace('"B1"', '"wait B1 grad"'))
write("runs/flow-without-ts.json", rtext.replace('"rank": 7', '"rank": 0').replace(
    '"traceEvents": [', '"traceEvents": [\n    {"ph": "s", "id": 1, "cat": "ac2g", "pid": 1, "tid": 1, "ts": "x"},'))

# Sessions with a bad "traces" part (the trace options and the Traces tab's files).
write("sessions/bad-trace-rules.slimpack",
      stext.replace('"view":', '"traces": {"rules": "nope", "files": ["a.json"]},\n  "view":'))
write("sessions/bad-trace-offsets.slimpack",
      stext.replace('"view":', '"traces": {"offsets_us": "1,x", "files": ["a.json"]},\n  "view":'))
write("sessions/bad-trace-files.slimpack",
      stext.replace('"view":', '"traces": {"files": [3]},\n  "view":'))
