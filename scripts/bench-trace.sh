#!/usr/bin/env bash
# Trace import against Python: generates a ~50 MB Kineto-like trace (the generator of
# tests/bench/core_trace_bench.cpp), plain and gzipped, and times python3's json.loads (gzip.open
# for the .gz) and `slimpack trace info` on the same files in the same run. Prints MB/s (JSON text
# per second, best of N runs, CPU time of the process and wall time) and the ratio.
# Usage: scripts/bench-trace.sh [SLIMPACK_BINARY] [RUNS]   (default build-bench/app/cli/slimpack, 3)
set -euo pipefail
cd "$(dirname "$0")/.."
cli=${1:-build-bench/app/cli/slimpack}
runs=${2:-3}
[ -x "$cli" ] || { echo "bench-trace: no slimpack binary at $cli (build it first)" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$cli" "$runs" "$dir" <<'PY'
import gzip, json, os, resource, subprocess, sys, time

cli, runs, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
TARGET = 50 << 20

def event(i):
    rank, lane, ts = i % 8, (i // 8) % 3, 1000 + i * 3
    k = i % 10
    if k < 3:
        return ('{"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": %d, "tid": %d, '
                '"ts": %d.125, "dur": 2.5, "args": {"External id": %d, "Input Dims": [[8, 4096], '
                '[4096, 4096]], "Sequence number": %d}}' % (rank, 100 + lane, ts, i, i // 3))
    if k < 6:
        return ('{"ph": "X", "cat": "kernel", "name": "sm90_xmma_gemm_bf16bf16_bf16f32", '
                '"pid": %d, "tid": "stream %d", "ts": %d.5, "dur": 1.75, "args": {"correlation": '
                '%d, "grid": [132, 1, 1], "block": [384, 1, 1]}}' % (rank, 7 + lane, ts, i))
    if k == 6:
        return ('{"ph": "B", "cat": "python_function", "name": "forward", "pid": %d, '
                '"tid": 999, "ts": %d}' % (rank, ts))
    if k == 7:
        return '{"ph": "E", "pid": %d, "tid": 999, "ts": %d}' % ((i - 1) % 8, ts)
    if k == 8:
        return ('{"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": %d, '
                '"tid": %d, "ts": %d, "s": "t", "args": {"Bytes": 1024}}' % (rank, 100 + lane, ts))
    return ('{"ph": "C", "name": "GPU memory", "pid": %d, "ts": %d, "args": {"allocated": %d}}'
            % (rank, ts, i * 64))

parts, size, i = [], 0, 0
head = '{"distributedInfo": {"rank": 0}, "traceEvents": [\n'
size = len(head)
while size < TARGET:
    e = event(i)
    parts.append(e)
    size += len(e) + 2
    i += 1
text = (head + ",\n".join(parts) + '\n], "displayTimeUnit": "ms"}\n').encode()
plain = os.path.join(out, "bench.json")
packed = os.path.join(out, "bench.json.gz")
with open(plain, "wb") as f:
    f.write(text)
with gzip.open(packed, "wb", compresslevel=6) as f:
    f.write(text)
mb = len(text) / 1e6
print("trace: %.1f MB of JSON, %d events; %.1f MB gzipped" % (mb, i, os.path.getsize(packed) / 1e6))

def python_load(path):
    opener = gzip.open if path.endswith(".gz") else open
    cpu0, wall0 = time.process_time(), time.perf_counter()
    with opener(path, "rb") as f:
        doc = json.loads(f.read())
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    assert len(doc["traceEvents"]) == i
    return cpu, wall

def slimpack_info(path):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall0 = time.perf_counter()
    subprocess.run([cli, "trace", "info", path], check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - wall0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall

def best(fn, path):
    times = [fn(path) for _ in range(runs)]
    return min(t[0] for t in times), min(t[1] for t in times)

for label, path in (("plain", plain), ("gzip", packed)):
    py_cpu, py_wall = best(python_load, path)
    sp_cpu, sp_wall = best(slimpack_info, path)
    print("%-5s python3 json.loads   %7.1f MB/s CPU  %7.1f MB/s wall" % (label, mb / py_cpu, mb / py_wall))
    print("%-5s slimpack trace info  %7.1f MB/s CPU  %7.1f MB/s wall" % (label, mb / sp_cpu, mb / sp_wall))
    print("%-5s ratio                %7.1fx CPU     %7.1fx wall" % (label, py_cpu / sp_cpu, py_wall / sp_wall))
PY
