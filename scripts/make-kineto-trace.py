#!/usr/bin/python3
"""Writes a real-shaped PyTorch profiler (Kineto) trace, as torch.profiler's export_chrome_trace
lays it out: the header fields (schemaVersion, deviceProperties, distributedInfo, ...), then
"traceEvents" with one event per line group, pretty-printed the way Kineto writes them:

  - cpu_op events (aten::*) with the args Kineto records with record_shapes: External id, Record
    function id, Ev Idx, Input Dims, Input type, Input Strides, Concrete Inputs;
  - python_function events, user_annotation ProfilerStep#N spans;
  - cuda_runtime cudaLaunchKernel / cudaMemcpyAsync with cbid and correlation;
  - kernel events on GPU streams with long templated names and the launch args (grid, block,
    registers, shared memory, occupancy), gpu_memcpy / gpu_memset, gpu_user_annotation;
  - ac2g flow start/end pairs ("s" on the CPU thread, "f" with "bp": "e" on the GPU stream);
  - [memory] instants with allocation args; process_name, process_labels, process_sort_index,
    thread_name and thread_sort_index metadata; a final Record Window End instant.

About 300 bytes of JSON per event, as on real traces. Usage:
  make-kineto-trace.py OUT.json SIZE_MB            (stops once SIZE_MB of JSON is written)
  make-kineto-trace.py OUT.json --events N         (N events)
Prints "EVENTS BYTES". Deterministic (a fixed seed).
"""
import random
import sys

KERNELS = [
    "void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_128x2_nn_align8>"
    "(cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_128x2_nn_align8::Params)",
    "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_"
    "segment_k_off_kernel__5x_cublas",
    "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
    "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)",
    "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, "
    "at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(float*, float const*, int)",
    "flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t, "
    "Flash_kernel_traits<128, 128, 64, 4, cutlass::bfloat16_t> >, false, true, false, false, true, "
    "true, false, false>(Flash_fwd_params)",
    "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, "
    "float, float, float>, unsigned int, float, 4> >(at::native::ReduceOp<float, "
    "at::native::MeanOps<float, float, float, float>, unsigned int, float, 4>)",
]
OPS = [
    ("aten::linear", [[8, 4096], [4096, 4096], [4096]], ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16"],
     [[4096, 1], [4096, 1], [1]], ["", "", ""]),
    ("aten::matmul", [[8, 32, 128], [8, 128, 32]], ["float", "float"], [[4096, 128, 1], [4096, 32, 1]], ["", ""]),
    ("aten::add_", [[8, 4096], [8, 4096], []], ["float", "float", "Scalar"], [[4096, 1], [4096, 1], []],
     ["", "", "1"]),
    ("aten::empty", [[], [], [], [], [], []], ["ScalarList", "Scalar", "", "", "", "Scalar"],
     [[], [], [], [], [], []], ["[8, 4096]", "15", "", "", "", "False"]),
    ("aten::softmax", [[8, 32, 128, 128], [], []], ["float", "Scalar", ""], [[524288, 16384, 128, 1], [], []],
     ["", "-1", ""]),
    ("aten::to", [[8, 4096], [], [], [], []], ["float", "Scalar", "Scalar", "Scalar", ""],
     [[4096, 1], [], [], [], []], ["", "15", "False", "False", ""]),
]


def dims(v):
    return "[" + ", ".join("[" + ", ".join(str(x) for x in d) + "]" for d in v) + "]"


def strs(v):
    return "[" + ", ".join('"%s"' % x for x in v) + "]"


class Writer:
    def __init__(self, out):
        self.out = out
        self.events = 0
        self.bytes = 0
        self.first = True

    def emit(self, text):
        sep = "" if self.first else ",\n"
        self.first = False
        s = sep + text
        self.out.write(s)
        self.events += 1
        self.bytes += len(s)


def header(rank):
    return ('{\n  "schemaVersion": 1,\n  "deviceProperties": [\n    {\n      "id": 0, "name": '
            '"NVIDIA H100 80GB HBM3", "totalGlobalMem": 85045231616,\n      "computeMajor": 9, '
            '"computeMinor": 0,\n      "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": '
            '2048,\n      "regsPerBlock": 65536, "regsPerMultiprocessor": 65536, "warpSize": 32,\n'
            '      "sharedMemPerBlock": 49152, "sharedMemPerMultiprocessor": 233472,\n      '
            '"numSms": 132, "sharedMemPerBlockOptin": 232448\n    }\n  ],\n  "distributedInfo": '
            '{"backend": "nccl", "rank": %d, "world_size": 8, "pg_count": 1, "pg_config": '
            '[{"pg_name": "0", "pg_desc": "default_pg", "backend_config": "cuda:nccl", '
            '"pg_size": 8, "ranks": [0, 1, 2, 3, 4, 5, 6, 7]}], "nccl_version": "2.20.5"},\n'
            '  "cupti_version": 22,\n  "cuda_runtime_version": 12040,\n  "cuda_driver_version": '
            '12040,\n  "profile_memory": 1,\n  "with_stack": 0,\n  "trace_id": '
            '"9C7F1D2A8E4B4C1F9A3D6E5B7C8A9F01",\n  "displayTimeUnit": "ms",\n'
            '  "baseTimeNanoseconds": 1717455400000000000,\n  "traceEvents": [\n' % rank)


def metadata(w, pid, ts):
    for name, args, tid in (("process_name", '"name": "python3"', 0),
                            ("process_labels", '"labels": "CPU"', 0),
                            ("process_sort_index", '"sort_index": %d' % pid, 0),
                            ("thread_name", '"name": "thread %d (python3)"' % pid, pid),
                            ("thread_sort_index", '"sort_index": %d' % pid, pid)):
        w.emit('  {\n    "name": "%s", "ph": "M", "ts": %s, "pid": %d, "tid": %d,\n    "args": {\n'
               '      %s\n    }\n  }' % (name, ts, pid, tid, args))
    for stream in (7, 20):
        w.emit('  {\n    "name": "process_name", "ph": "M", "ts": %s, "pid": 0, "tid": 0,\n'
               '    "args": {\n      "name": "python3"\n    }\n  }' % ts)
        w.emit('  {\n    "name": "process_labels", "ph": "M", "ts": %s, "pid": 0, "tid": 0,\n'
               '    "args": {\n      "labels": "GPU 0"\n    }\n  }' % ts)
        w.emit('  {\n    "name": "thread_name", "ph": "M", "ts": %s, "pid": 0, "tid": %d,\n'
               '    "args": {\n      "name": "stream %d"\n    }\n  }' % (ts, stream, stream))


def generate(w, max_events, max_bytes):
    rng = random.Random(42)
    pid = 1383
    ts = 5437620580.0  # microseconds since baseTimeNanoseconds, as Kineto writes them
    metadata(w, pid, "%.3f" % ts)
    corr = 1
    ext = 1
    step = 1
    while w.events < max_events and w.bytes < max_bytes:
        step_start = ts
        w.emit('  {\n    "ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d", "pid": %d, '
               '"tid": %d,\n    "ts": %.3f, "dur": %.3f,\n    "args": {\n      "External id": %d,'
               '"Record function id": 0, "Ev Idx": %d\n    }\n  }'
               % (step, pid, pid, ts, 20000.0, ext, ext - 1))
        ext += 1
        for _ in range(200):
            if w.events >= max_events or w.bytes >= max_bytes:
                return
            op = OPS[rng.randrange(len(OPS))]
            dur = rng.uniform(5, 80)
            w.emit('  {\n    "ph": "X", "cat": "python_function", "name": '
                   '"torch/nn/modules/module.py(1527): _call_impl", "pid": %d, "tid": %d,\n'
                   '    "ts": %.3f, "dur": %.3f,\n    "args": {\n      "Python parent id": %d, '
                   '"Python id": %d, "Python thread": 0\n    }\n  }' % (pid, pid, ts, dur + 4, ext, ext + 1))
            w.emit('  {\n    "ph": "X", "cat": "cpu_op", "name": "%s", "pid": %d, "tid": %d,\n'
                   '    "ts": %.3f, "dur": %.3f,\n    "args": {\n      "External id": %d,'
                   '"Record function id": 0, "Sequence number": %d, "Fwd thread id": 0, '
                   '"Ev Idx": %d, "Input Dims": %s, "Input type": %s, "Input Strides": %s, '
                   '"Concrete Inputs": %s\n    }\n  }'
                   % (op[0], pid, pid, ts + 1, dur, ext, ext // 2, ext, dims(op[1]), strs(op[2]),
                      dims(op[3]), strs(op[4])))
            launch = ts + 2 + dur * 0.5
            kernel = KERNELS[rng.randrange(len(KERNELS))]
            stream = 20 if kernel.startswith("nccl") else 7
            w.emit('  {\n    "ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": %d, '
                   '"tid": %d,\n    "ts": %.3f, "dur": %.3f,\n    "args": {\n      "External id": %d,'
                   '\n      "cbid": 211, "correlation": %d\n    }\n  }' % (pid, pid, launch, 4.2, ext, corr))
            w.emit('  {\n    "ph": "s", "id": %d, "pid": %d, "tid": %d, "ts": %.3f,\n    "cat": '
                   '"ac2g", "name": "ac2g"\n  }' % (corr, pid, pid, launch))
            gts = launch + rng.uniform(10, 40)
            gdur = rng.uniform(2, 120)
            w.emit('  {\n    "ph": "X", "cat": "kernel", "name": "%s", "pid": 0, "tid": %d,\n'
                   '    "ts": %.3f, "dur": %.3f,\n    "args": {\n      "External id": %d,\n'
                   '      "queued": 0, "device": 0, "context": 1,\n      "stream": %d, '
                   '"correlation": %d,\n      "registers per thread": %d,\n      "shared memory": '
                   '%d,\n      "blocks per SM": %.6f,\n      "warps per SM": %.6f,\n      "grid": '
                   '[%d, 1, 1],\n      "block": [%d, 1, 1],\n      "est. achieved occupancy %%": %d\n'
                   '    }\n  }' % (kernel, stream, gts, gdur, ext, stream, corr, rng.choice((16, 32, 128, 168)),
                                   rng.choice((0, 16384, 98304)), rng.uniform(0, 4), rng.uniform(0, 16),
                                   rng.choice((1, 132, 264, 1024)), rng.choice((128, 256, 384)),
                                   rng.randrange(0, 100)))
            w.emit('  {\n    "ph": "f", "id": %d, "pid": 0, "tid": %d, "ts": %.3f,\n    "cat": '
                   '"ac2g", "name": "ac2g", "bp": "e"\n  }' % (corr, stream, gts))
            corr += 1
            ext += 2
            if rng.random() < 0.1:
                w.emit('  {\n    "ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]",\n'
                       '    "pid": %d, "tid": %d,\n    "ts": %.3f,\n    "args": {\n      '
                       '"Total Reserved": 2097152, "Total Allocated": %d, "Bytes": 512, "Addr": '
                       '139942834143232, "Device Id": 0, "Device Type": 1\n    }\n  }'
                       % (pid, pid, ts + 1.5, rng.randrange(1 << 20, 1 << 30)))
            if rng.random() < 0.05:
                w.emit('  {\n    "ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> '
                       'Device)", "pid": 0, "tid": 7,\n    "ts": %.3f, "dur": 1.344,\n    "args": {\n'
                       '      "External id": %d,\n      "device": 0, "context": 1,\n      "stream": 7, '
                       '"correlation": %d,\n      "bytes": 4, "memory bandwidth (GB/s)": 0.002976\n'
                       '    }\n  }' % (gts + gdur, ext, corr))
            ts += dur + 6
        w.emit('  {\n    "ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#%d", "pid": 0, '
               '"tid": 7,\n    "ts": %.3f, "dur": %.3f,\n    "args": {\n      "External id": %d\n'
               '    }\n  }' % (step, step_start + 30, ts - step_start, ext))
        step += 1
        ts += 50


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    path = sys.argv[1]
    if sys.argv[2] == "--events":
        max_events, max_bytes = int(sys.argv[3]), 1 << 62
    else:
        max_events, max_bytes = 1 << 62, int(float(sys.argv[2]) * (1 << 20))
    with open(path, "w", buffering=1 << 20) as out:
        head = header(0)
        out.write(head)
        w = Writer(out)
        generate(w, max_events, max_bytes)
        w.emit('  {\n    "name": "Record Window End", "ph": "i", "s": "g",\n    "pid": "", "tid": "", '
               '"ts": 5437999999.000\n  }')
        tail = '\n  ],\n  "traceName": "%s"\n}\n' % path
        out.write(tail)
    print(w.events, len(head) + w.bytes + len(tail))


if __name__ == "__main__":
    main()
