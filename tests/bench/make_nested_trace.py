#!/usr/bin/env python3
"""Writes a synthetic PyTorch-profiler-like trace of about SIZE MB (default 50) for measuring the
explorer's trace view: ProfilerStep > forward/backward > aten ops > sub-ops on one CPU thread
(four nesting levels) and kernels on two GPU streams.
Usage: make_nested_trace.py OUT.json [SIZE_MB]"""
import json
import sys

out_path = sys.argv[1]
target = float(sys.argv[2] if len(sys.argv) > 2 else 50) * 1e6
events = [
    {"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": "python3"}},
    {"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "thread 1 (python3)"}},
    {"ph": "M", "name": "process_name", "pid": 0, "tid": 0, "args": {"name": "GPU 0"}},
    {"ph": "M", "name": "thread_name", "pid": 0, "tid": 7, "args": {"name": "stream 7"}},
    {"ph": "M", "name": "thread_name", "pid": 0, "tid": 20, "args": {"name": "stream 20 nccl"}},
]
with open(out_path, "w") as f:
    f.write('{"schemaVersion": 1, "distributedInfo": {"rank": 0, "world_size": 1}, "traceEvents": [\n')
    f.write(",\n".join(json.dumps(e) for e in events))
    size, t, step = 0, 1000.0, 0
    while size < target:
        chunk = []
        step_start = t
        for phase, ops in (("forward", 40), ("backward", 80)):
            ph_start = t
            for k in range(ops):
                op_start = t
                for s in range(3):
                    chunk.append({"ph": "X", "cat": "cpu_op", "name": f"aten::sub_{s}", "pid": 1, "tid": 1,
                                  "ts": t + 0.5, "dur": 2.0, "args": {"External id": k * 3 + s}})
                    chunk.append({"ph": "X", "cat": "kernel", "name": f"gemm_{phase}_{s}", "pid": 0,
                                  "tid": 7, "ts": t + 1.0, "dur": 2.5, "args": {"correlation": k}})
                    t += 3.0
                chunk.append({"ph": "X", "cat": "cpu_op", "name": f"aten::op_{k % 16}", "pid": 1, "tid": 1,
                              "ts": op_start, "dur": t - op_start, "args": {"Input Dims": [[8, 4096]]}})
                t += 0.5
            chunk.append({"ph": "X", "cat": "user_annotation", "name": phase, "pid": 1, "tid": 1,
                          "ts": ph_start, "dur": t - ph_start})
            chunk.append({"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce", "pid": 0, "tid": 20,
                          "ts": t, "dur": 40.0})
            t += 45.0
        chunk.append({"ph": "X", "cat": "user_annotation", "name": f"ProfilerStep#{step}", "pid": 1,
                      "tid": 1, "ts": step_start, "dur": t - step_start})
        step += 1
        text = ",\n" + ",\n".join(json.dumps(e) for e in chunk)
        f.write(text)
        size += len(text)
    f.write("\n]}\n")
