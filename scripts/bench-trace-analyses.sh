#!/usr/bin/env bash
# The trace analyses against the import they stand on: generates a Kineto-shaped trace (profiler
# steps, cpu_op ranges launching kernels on two streams with ac2g flows and correlation args, NCCL
# kernels overlapping computation, memory copies) of about EVENTS events, and times in the same run
# Python's json.loads of the file (the reference), `slimpack trace info`, `slimpack trace summary`
# and `slimpack trace compare --steps all --short-names` of the file against itself. Prints the
# best of RUNS wall times, peak memory and each command's time over json.loads.
# Usage: scripts/bench-trace-analyses.sh [SLIMPACK_BINARY] [EVENTS] [RUNS]
#        (default build/app/cli/slimpack, 1000000, 3)
set -euo pipefail
cd "$(dirname "$0")/.."
cli=${1:-build/app/cli/slimpack}
events=${2:-1000000}
runs=${3:-3}
[ -x "$cli" ] || { echo "bench-trace-analyses: no slimpack binary at $cli" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
/usr/bin/python3 - "$cli" "$events" "$runs" "$dir" <<'PY'
import os, subprocess, sys, time

cli, events, runs, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
path = os.path.join(out, "rank0.pt.trace.json")
# One launch = cpu_op, cudaLaunchKernel, kernel, 2 flow points: 5 events; 200 launches a step.
per_step, launches = 200, max(1, events // 5)
with open(path, "w") as f:
    f.write('{"distributedInfo": {"rank": 0}, "traceEvents": [\n')
    f.write('{"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": "python3"}},\n')
    f.write('{"ph": "M", "name": "process_labels", "pid": 0, "tid": 0, "args": {"labels": "GPU 0"}}')
    t = 0.0
    for i in range(launches):
        if i % per_step == 0:
            f.write(',\n{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d", "pid": 1, '
                    '"tid": 1, "ts": %.3f, "dur": %.3f}' % (i // per_step, t, per_step * 10.0))
        comm = i % 10 == 9
        copy = i % 25 == 24
        name = ("ncclDevKernel_AllReduce_Sum_bf16_RING_LL" if comm else
                "Memcpy DtoH (Device -> Pageable)" if copy else
                "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>,"
                " at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>)")
        cat = "gpu_memcpy" if copy else "kernel"
        stream = 20 if comm else 7
        f.write(',\n{"ph": "X", "cat": "cpu_op", "name": "aten::fill_", "pid": 1, "tid": 1, '
                '"ts": %.3f, "dur": 6.0, "args": {"External id": %d, "Input Dims": [[8, 4096]]}}'
                % (t + 1, i))
        f.write(',\n{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, '
                '"tid": 1, "ts": %.3f, "dur": 3.0, "args": {"correlation": %d}}' % (t + 2, i))
        f.write(',\n{"ph": "s", "id": %d, "cat": "ac2g", "name": "ac2g", "pid": 1, "tid": 1, '
                '"ts": %.3f}' % (i, t + 2))
        k0 = t + 6 + (i % 3)
        f.write(',\n{"ph": "X", "cat": "%s", "name": "%s", "pid": 0, "tid": %d, "ts": %.3f, '
                '"dur": %.3f, "args": {"correlation": %d, "stream": %d}}'
                % (cat, name, stream, k0, 25.0 if comm else 7.5, i, stream))
        f.write(',\n{"ph": "f", "id": %d, "cat": "ac2g", "name": "ac2g", "pid": 0, "tid": %d, '
                '"ts": %.3f, "bp": "e"}' % (i, stream, k0))
        t += 10.0
    f.write('\n]}\n')
mb = os.path.getsize(path) / 1e6

def best(cmd):
    times, peak = [], 0.0
    for _ in range(runs):
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)  # this child's own peak, not the largest so far
        times.append(time.perf_counter() - t0)
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit("failed: %s" % " ".join(cmd))
        peak = max(peak, usage.ru_maxrss / 1024)
    return min(times), peak

py = best(["/usr/bin/python3", "-c", "import json,sys; json.load(open(sys.argv[1]))", path])
rows = [("python3 json.load (reference)", py)]
for label, args in [("slimpack trace info", ["trace", "info", path]),
                    ("slimpack trace summary", ["trace", "summary", path, "--json", "-"]),
                    ("slimpack trace compare --steps all --short-names",
                     ["trace", "compare", path, path, "--steps", "all", "--short-names", "--json",
                      "-"])]:
    rows.append((label, best([cli] + args)))
print("trace: %.1f MB, about %d events, %d steps; best of %d runs" %
      (mb, launches * 5, (launches + per_step - 1) // per_step, runs))
print("%-50s %9s %9s %14s" % ("command", "wall s", "x json", "peak RSS MiB"))
for label, (sec, peak) in rows:
    print("%-50s %9.3f %9.2f %14.0f" % (label, sec, sec / py[0], peak))
PY
