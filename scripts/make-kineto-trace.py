#!/usr/bin/python3
"""Writes a real-shaped PyTorch profiler (Kineto) trace, as torch.profiler's export_chrome_trace
lays it out: the header fields (schemaVersion, deviceProperties, distributedInfo, ...), then
"traceEvents" pretty-printed the way Kineto writes them (one field group a line, about 7 lines an
event):

  - cpu_op events (aten::* with the record_shapes args: Input Dims, Input type, ...; their child
    ops and the autograd ops of the backward pass with the short args only), python_function
    events, user_annotation ProfilerStep#N spans;
  - cuda_runtime calls: cudaLaunchKernel / cudaMemcpyAsync, and calls that launch nothing
    (cudaStreamIsCapturing, cudaGetDevice, ...), each with cbid and correlation;
  - kernel events on GPU streams with long templated names and the launch args (grid, block,
    registers, shared memory, occupancy), gpu_memcpy, gpu_user_annotation;
  - CPU-to-GPU flows: a start ("s") on the launch and an end ("f", "bp": "e") on the kernel, plus
    the lone end Kineto writes on the CPU thread for every runtime call that launched nothing
    (which is why real traces hold about twice as many "f" as "s"); forward-to-backward flows;
  - [memory] cpu_instant_event instants with the allocator's args (profile_memory);
  - process and thread metadata; a final Record Window End instant.

Two styles, one per file, as Kineto wrote them over the years (scripts/kineto-shape.py compares
both with public traces, docs/performance.md has the table):
  --style new   (default) Kineto since 2023: float timestamps with 3 decimals relative to
                baseTimeNanoseconds, "ac2g" flows and "fwdbwd" flows, the newer cpu_op args;
  --style old   Kineto of 2022: integer microseconds since the epoch (16 digits),
                "async_cpu_to_gpu" flows named "async_gpu" ("bp": "e" on both ends), the older
                cpu_op args ("Trace name", "Profiler Event Index", "Call stack", ...).
The proportions of events follow the public traces of docs/performance.md (about 27 % cpu_op,
19 % cuda_runtime, 29 % flow events, 10 % kernels, 10 % memory instants) at about 250 bytes an
event. python_function events (about 4 %) come from with_stack=True, which none of those public
traces used; they are kept because traces recorded with it have them.

Usage:
  make-kineto-trace.py OUT.json SIZE_MB [--style new|old]     (stops once SIZE_MB are written)
  make-kineto-trace.py OUT.json --events N [--style new|old]  (N events)
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
    "void at::native::(anonymous namespace)::CatArrayBatchedCopy_aligned16_contig<at::native::"
    "(anonymous namespace)::OpaqueType<4u>, unsigned int, 1, 128, 1>(at::native::(anonymous "
    "namespace)::OpaqueType<4u>*, at::native::(anonymous namespace)::CatArrInputTensorMetadata<"
    "at::native::(anonymous namespace)::OpaqueType<4u>, unsigned int, 128, 1>, at::native::"
    "(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int)",
    "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::"
    "BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > >(at::"
    "TensorIteratorBase&, at::native::BinaryFunctor<float, float, float, at::native::"
    "binary_internal::MulFunctor<float> > const&)::{lambda(int)#1}>(int, at::native::"
    "gpu_kernel_impl_nocast<at::native::BinaryFunctor<float, float, float, at::native::"
    "binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor"
    "<float, float, float, at::native::binary_internal::MulFunctor<float> > const&)::"
    "{lambda(int)#1})",
]
# name, Input Dims, Input type, Input Strides, Concrete Inputs: the forward ops, recorded with
# record_shapes as on the public traces that have shapes.
OPS = [
    ("aten::linear", [[8, 4096], [4096, 4096], [4096]], ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16"],
     [[4096, 1], [4096, 1], [1]], ["", "", ""]),
    ("aten::matmul", [[8, 32, 128], [8, 128, 32]], ["float", "float"], [[4096, 128, 1], [4096, 32, 1]], ["", ""]),
    ("aten::add_", [[8, 4096], [8, 4096], []], ["float", "float", "Scalar"], [[4096, 1], [4096, 1], []],
     ["", "", "1"]),
    ("aten::softmax", [[8, 32, 128, 128], [], []], ["float", "Scalar", ""], [[524288, 16384, 128, 1], [], []],
     ["", "-1", ""]),
    ("aten::to", [[8, 4096], [], [], [], []], ["float", "Scalar", "Scalar", "Scalar", ""],
     [[4096, 1], [], [], [], []], ["", "15", "False", "False", ""]),
]
CHILD_OPS = ["aten::empty", "aten::empty_strided", "aten::addmm", "aten::t", "aten::view",
             "aten::as_strided", "aten::copy_", "aten::fill_"]
BACKWARD_OPS = ["AddmmBackward0", "MulBackward0", "SoftmaxBackward0", "ViewBackward0",
                "NativeLayerNormBackward0", "ToCopyBackward0"]
# Runtime calls that launch nothing; Kineto still gives each a flow end on the CPU thread.
OTHER_RUNTIME = [("cudaStreamIsCapturing", 317), ("cudaGetDevice", 17), ("cudaEventRecord", 135),
                 ("cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", 251),
                 ("cudaStreamWaitEvent", 147)]
PYTHON_FRAMES = ["torch/nn/modules/module.py(1527): _call_impl",
                 "torch/nn/modules/linear.py(114): forward",
                 "torch/nn/functional.py(1858): softmax",
                 "<built-in method matmul of type object at 0x7f2d4c8e9f20>"]

GROUPS_PER_STEP = 200  # op groups per profiler step: the first half forward, the rest backward


class Style:
    """What changed between Kineto versions and matters to a parser: how numbers look (integer
    or 3-decimal timestamps, their digit count) and the flow category."""

    def __init__(self, name):
        self.old = name == "old"
        # old: absolute epoch microseconds; new: relative to baseTimeNanoseconds (13 digits)
        self.start = 1669783687384669 if self.old else 4458676522709.059
        self.flow_cat = "async_cpu_to_gpu" if self.old else "ac2g"
        self.flow_name = "async_gpu" if self.old else "ac2g"

    def t(self, us):
        """A timestamp or duration as this Kineto version prints it."""
        return "%d" % round(us) if self.old else "%.3f" % us

    def flow(self, ph, fid, pid, tid, ts, cat=None):
        """A flow event: CPU-to-GPU unless cat says otherwise ("fwdbwd", named as its category).
        Old Kineto put "bp": "e" on both ends of the pair, new only on the end."""
        name = cat or self.flow_name
        bp = ', "bp": "e"' if (self.old or ph == "f") else ""
        return ('  {\n    "ph": "%s", "id": %d, "pid": %d, "tid": %d, "ts": %s,\n    "cat": "%s", '
                '"name": "%s"%s\n  }' % (ph, fid, pid, tid, self.t(ts), cat or self.flow_cat,
                                         name, bp))

    def op_args(self, ext, seq, ev_idx, shapes):
        """A cpu_op's args; shapes is an OPS entry or None (ops recorded without shapes)."""
        if self.old:
            text = ('"Trace name": "PyTorch Profiler", "Trace iteration": 0,\n      "External id": '
                    '%d,\n      "Profiler Event Index": %d' % (ext, ev_idx))
            if shapes:
                text += ', "Input Dims": %s, "Input type": %s' % (dims(shapes[1]), strs(shapes[2]))
            return text + ', "Module Hierarchy": "", "Call stack": ""'
        text = ('"External id": %d,"Record function id": 0, "Sequence number": %d, '
                '"Fwd thread id": 0, "Ev Idx": %d' % (ext, seq, ev_idx))
        if shapes:
            text += (', "Input Dims": %s, "Input type": %s, "Input Strides": %s, '
                     '"Concrete Inputs": %s' % (dims(shapes[1]), strs(shapes[2]),
                                                dims(shapes[3]), strs(shapes[4])))
        return text


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


def header(rank, style):
    base = '' if style.old else '  "baseTimeNanoseconds": 1711964646000000000,\n'
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
            '12040,\n  "profile_memory": 1,\n  "with_stack": 1,\n  "trace_id": '
            '"9C7F1D2A8E4B4C1F9A3D6E5B7C8A9F01",\n  "displayTimeUnit": "ms",\n'
            '%s  "traceEvents": [\n' % (rank, base))


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


class Gen:
    """The running state of one trace: clock, ids, and the forward ops awaiting their backward."""

    def __init__(self, w, style):
        self.w = w
        self.s = style
        self.rng = random.Random(42)
        self.pid = 1383
        self.ts = style.start
        self.corr = 1
        self.ext = 1
        self.ev_idx = 0
        self.fwdbwd = 0  # last forward-to-backward flow id
        self.pending = []  # fwdbwd ids started in the forward half of the step

    def x(self, cat, name, pid, tid, ts, dur, args):
        self.w.emit('  {\n    "ph": "X", "cat": "%s", "name": "%s", "pid": %d, "tid": %d,\n'
                    '    "ts": %s, "dur": %s,\n    "args": {\n      %s\n    }\n  }'
                    % (cat, name, pid, tid, self.s.t(ts), self.s.t(dur), args))

    def cpu_op(self, name, ts, dur, shapes):
        self.x("cpu_op", name, self.pid, self.pid, ts, dur,
               self.s.op_args(self.ext, self.ext // 2, self.ev_idx, shapes))
        self.ext += 1
        self.ev_idx += 1

    def python_function(self, ts, dur):
        frame = PYTHON_FRAMES[self.rng.randrange(len(PYTHON_FRAMES))]
        self.x("python_function", frame, self.pid, self.pid, ts, dur,
               '"Python parent id": %d, "Python id": %d, "Python thread": 0' % (self.ext, self.ext + 1))

    def memory(self, ts):
        self.w.emit('  {\n    "ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]",\n'
                    '    "pid": %d, "tid": %d,\n    "ts": %s,\n    "args": {\n      "Ev Idx": %d, '
                    '"Device Type": 1, "Device Id": 0, "Addr": %d, "Bytes": %d, "Total Allocated": '
                    '%d, "Total Reserved": 12782141440\n    }\n  }'
                    % (self.pid, self.pid, self.s.t(ts), self.ev_idx,
                       139926520725504 + self.rng.randrange(1 << 30) * 512,
                       self.rng.choice((512, 4194304, 5242880, -5242880)),
                       self.rng.randrange(1 << 30, 1 << 33)))
        self.ev_idx += 1

    def runtime(self, name, cbid, ts, dur):
        self.x("cuda_runtime", name, self.pid, self.pid, ts, dur,
               '"External id": %d,\n      "cbid": %d, "correlation": %d' % (self.ext, cbid, self.corr))

    def idle_call(self, ts):
        """A runtime call that launches nothing, and the lone flow end Kineto writes for it."""
        name, cbid = OTHER_RUNTIME[self.rng.randrange(len(OTHER_RUNTIME))]
        self.runtime(name, cbid, ts, self.rng.uniform(1, 4))
        self.w.emit(self.s.flow("f", self.corr, self.pid, self.pid, ts))
        self.corr += 1

    def launch(self, ts):
        """cudaLaunchKernel (or a memcpy) with its flow pair and the GPU activity."""
        memcpy = self.rng.random() < 0.07
        self.runtime("cudaMemcpyAsync" if memcpy else "cudaLaunchKernel", 51 if memcpy else 211,
                     ts, self.rng.uniform(3, 40))
        self.w.emit(self.s.flow("s", self.corr, self.pid, self.pid, ts))
        gts = ts + self.rng.uniform(10, 40)
        if memcpy:
            self.x("gpu_memcpy", "Memcpy DtoD (Device -> Device)", 0, 7, gts, 15,
                   '"External id": %d,\n      "device": 0, "context": 1,\n      "stream": 7, '
                   '"correlation": %d,\n      "bytes": 5177344, "memory bandwidth (GB/s)": '
                   '339.2088056083339' % (self.ext, self.corr))
            stream = 7
        else:
            stream = self.kernel(gts)
        self.w.emit(self.s.flow("f", self.corr, 0, stream, gts))
        self.corr += 1

    def kernel(self, gts):
        rng = self.rng
        name = KERNELS[rng.randrange(len(KERNELS))]
        stream = 20 if name.startswith("nccl") else 7
        self.x("kernel", name, 0, stream, gts, rng.uniform(2, 120),
               '"External id": %d,\n      "queued": 0, "device": 0, "context": 1,\n      '
               '"stream": %d, "correlation": %d,\n      "registers per thread": %d,\n      '
               '"shared memory": %d,\n      "blocks per SM": %.6f,\n      "warps per SM": %.6f,\n'
               '      "grid": [%d, 1, 1],\n      "block": [%d, 1, 1],\n      '
               '"est. achieved occupancy %%": %d'
               % (self.ext, stream, self.corr, rng.choice((16, 32, 128, 168)),
                  rng.choice((0, 16384, 98304)), rng.uniform(0, 4), rng.uniform(0, 16),
                  rng.choice((1, 132, 264, 1024)), rng.choice((128, 256, 384)), rng.randrange(100)))
        return stream

    def group(self, backward):
        """One op as the profiler sees it: a parent op, a child op, the runtime calls and GPU work
        it caused, the allocator's instants. About 7 events."""
        rng, ts = self.rng, self.ts
        dur = rng.uniform(20, 80)
        if rng.random() < 0.3:
            self.python_function(ts, dur + 4)
        if backward:
            bwd = BACKWARD_OPS[rng.randrange(len(BACKWARD_OPS))]
            self.cpu_op("autograd::engine::evaluate_function: " + bwd, ts + 1, dur, None)
            self.cpu_op(bwd, ts + 2, dur - 2, None)
            if self.pending and not self.s.old:
                self.w.emit(self.s.flow("f", self.pending.pop(), self.pid, self.pid, ts + 2,
                                        "fwdbwd"))
        else:
            op = OPS[rng.randrange(len(OPS))]
            # about half the forward ops carry shapes: record_shapes on some ranks, not others
            self.cpu_op(op[0], ts + 1, dur, op if rng.random() < 0.5 else None)
            if not self.s.old and rng.random() < 0.1:
                self.fwdbwd += 1
                self.pending.append(self.fwdbwd)
                self.w.emit(self.s.flow("s", self.fwdbwd, self.pid, self.pid, ts + 1, "fwdbwd"))
            self.cpu_op(CHILD_OPS[rng.randrange(len(CHILD_OPS))], ts + 2, dur * 0.3, None)
        at = ts + 3 + dur * 0.3
        if rng.random() < 0.6:
            self.idle_call(at)
        if rng.random() < 0.75:
            self.launch(at + 5)
        if rng.random() < 0.7:
            self.memory(at + 1.5)
        self.ext += 1
        self.ts += dur + 6

    def step(self, number, done):
        """One ProfilerStep#N: its CPU and GPU annotations around GROUPS_PER_STEP op groups.
        Stops early once done() says the size is reached."""
        start = self.ts
        self.x("user_annotation", "ProfilerStep#%d" % number, self.pid, self.pid, start, 20000.0,
               '"External id": %d,"Record function id": 0, "Ev Idx": %d' % (self.ext, self.ev_idx))
        self.ext += 1
        for i in range(GROUPS_PER_STEP):
            if done():
                return False
            self.group(i >= GROUPS_PER_STEP // 2)
        self.pending.clear()  # a step's backward consumes only its own forward's flows
        self.x("gpu_user_annotation", "ProfilerStep#%d" % number, 0, 7, start + 30,
               self.ts - start, '"External id": %d' % self.ext)
        self.ts += 50
        return True


def generate(w, style, max_events, max_bytes):
    gen = Gen(w, style)
    metadata(w, gen.pid, style.t(style.start))
    step = 1
    while gen.step(step, lambda: w.events >= max_events or w.bytes >= max_bytes):
        step += 1
    return gen.ts


def parse_args(argv):
    """(path, max_events, max_bytes, style) from the command line, or exit with the usage."""
    args = list(argv)
    style = "new"
    if "--style" in args:
        i = args.index("--style")
        if i + 1 >= len(args) or args[i + 1] not in ("new", "old"):
            sys.exit(__doc__)
        style = args[i + 1]
        del args[i:i + 2]
    if len(args) < 2 or (args[1] == "--events" and len(args) < 3):
        sys.exit(__doc__)
    if args[1] == "--events":
        return args[0], int(args[2]), 1 << 62, style
    return args[0], 1 << 62, int(float(args[1]) * (1 << 20)), style


def main():
    path, max_events, max_bytes, style_name = parse_args(sys.argv[1:])
    style = Style(style_name)
    with open(path, "w", buffering=1 << 20) as out:
        head = header(0, style)
        out.write(head)
        w = Writer(out)
        end = generate(w, style, max_events, max_bytes)
        w.emit('  {\n    "name": "Record Window End", "ph": "i", "s": "g",\n    "pid": "", "tid": "", '
               '"ts": %s\n  }' % style.t(end + 100))
        tail = '\n  ],\n  "traceName": "%s"\n}\n' % path
        out.write(tail)
    print(w.events, len(head) + w.bytes + len(tail))


if __name__ == "__main__":
    main()
