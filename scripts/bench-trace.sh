#!/usr/bin/env bash
# Trace import against Python, in one run on the same files:
#   synthetic   the generator of tests/bench/core_trace_bench.cpp (~50 MB, short args), as before;
#   kineto-new  a real-shaped PyTorch profiler trace as Kineto writes it since 2023
#               (scripts/make-kineto-trace.py --style new, ~50 MB: 3-decimal timestamps, ac2g and
#               fwdbwd flows, args-heavy cpu_op and kernel events, [memory] instants, metadata);
#   kineto-old  the same as Kineto wrote it in 2022 (--style old: integer timestamps,
#               async_cpu_to_gpu flows). Real files come in both styles, so both are measured.
#   TRACES="a.json.gz b.json ..."  (optional) real traces, benchmarked as they are: each given
#               file is measured plain and gzipped (the other form made under mktemp).
# Each plain and gzipped (gzip -6). Times /usr/bin/python3's json.loads (through gzip.open for the
# .gz; CPU time of the load in the process) and `slimpack trace info` (CPU time of the process,
# from its rusage), best of RUNS, the two alternating so that load from other jobs falls on both;
# prints MB/s of JSON text and the ratio (and, as "import", the ratio without the program's
# start, measured on an empty trace: Python's figure has no interpreter start in it); peak RSS of
# each (/usr/bin/time; one run: Python loading the file, slimpack importing it). Then the limit: what libdeflate, zlib and simdjson alone reach
# on the kineto-new files (tests/bench/trace_limits.cpp), so the gap is known.
# Usage: [TRACES=...] scripts/bench-trace.sh [SLIMPACK_BINARY] [RUNS]
#        (default build-bench/app/cli/slimpack, 3)
# The limit program is taken from the same build directory (tests/bench/slimpack_trace_limits).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /usr/bin/time ] || { echo "bench-trace: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }
cli=${1:-build-bench/app/cli/slimpack}
runs=${2:-3}
[ -x "$cli" ] || { echo "bench-trace: no slimpack binary at $cli (build it first)" >&2; exit 2; }
limits=$(dirname "$(dirname "$(dirname "$cli")")")/tests/bench/slimpack_trace_limits
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
/usr/bin/python3 scripts/make-kineto-trace.py "$dir/kineto-new.json" 50 --style new >/dev/null
/usr/bin/python3 scripts/make-kineto-trace.py "$dir/kineto-old.json" 50 --style old >/dev/null
# real traces: both forms under $dir, named after the file (its .json/.gz endings dropped)
names="synthetic kineto-new kineto-old"
for t in ${TRACES:-}; do
  base=$(basename "$t"); base=${base%.gz}; base=${base%.json}
  case "$t" in
    *.gz) gzip -dc "$t" >"$dir/$base.json"; cp "$t" "$dir/$base.json.gz" ;;
    *) cp "$t" "$dir/$base.json"; gzip -6 -c "$t" >"$dir/$base.json.gz" ;;
  esac
  names="$names $base"
done
NAMES="$names" /usr/bin/python3 - "$cli" "$runs" "$dir" <<'PY'
import gzip, json, os, re, subprocess, sys, time

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

parts, i = [], 0
head = '{"distributedInfo": {"rank": 0}, "traceEvents": [\n'
size = len(head)
while size < TARGET:
    e = event(i)
    parts.append(e)
    size += len(e) + 2
    i += 1
with open(os.path.join(out, "synthetic.json"), "wb") as f:
    f.write((head + ",\n".join(parts) + '\n], "displayTimeUnit": "ms"}\n').encode())
del parts
NAMES = os.environ["NAMES"].split()
for name in ("synthetic", "kineto-new", "kineto-old"):
    with open(os.path.join(out, name + ".json"), "rb") as f, \
         gzip.open(os.path.join(out, name + ".json.gz"), "wb", compresslevel=6) as g:
        g.write(f.read())

LOAD = ("import gzip, json, sys\n"
        "p = sys.argv[1]\n"
        "with (gzip.open if p.endswith('.gz') else open)(p, 'rb') as f:\n"
        "    doc = json.loads(f.read())\n")

def python_load(path):
    opener = gzip.open if path.endswith(".gz") else open
    cpu0, wall0 = time.process_time(), time.perf_counter()
    with opener(path, "rb") as f:
        doc = json.loads(f.read())
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    del doc
    return cpu, wall

def timed(cmd):
    """CPU seconds (user + sys), wall seconds and peak RSS (KiB) of one run. CPU from rusage
    (os.wait4, microseconds: /usr/bin/time prints hundredths, a 13 % step on an 80 ms run); the
    peak from /usr/bin/time, whose child starts clean (a child forked from this Python process
    would count this process's pages)."""
    wall0 = time.perf_counter()
    proc = subprocess.Popen(["/usr/bin/time", "-f", "%M"] + cmd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    err = proc.stderr.read()
    _, status, ru = os.wait4(proc.pid, 0)  # includes what /usr/bin/time waited for
    wall = time.perf_counter() - wall0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("bench-trace: %s failed: %s" % (" ".join(cmd), err.strip()))
    return ru.ru_utime + ru.ru_stime, wall, float(err.strip().splitlines()[-1])

def interleaved(path):
    """RUNS Python loads and RUNS imports, alternating: on a machine shared with other jobs the
    load comes in phases of seconds, and running all of one side first let a phase fall on one
    side only (the same file gave 11.5x in one run and 4.7x in the next). Best of each side."""
    py, sp = [], []
    for _ in range(runs):
        py.append(python_load(path))
        sp.append(timed([cli, "trace", "info", path]))
    return py, sp

# The program's own start (dynamic linking: the CLI maps Qt for its pictures, about 10 ms) is in
# every slimpack figure, and the interpreter's start in no Python one: "import" is the ratio with
# the start, measured here on an empty trace, taken off (the CPU of the import alone).
empty = os.path.join(out, "empty.json")
with open(empty, "w") as f:
    f.write("[]")
start = min(timed([cli, "trace", "info", empty])[0] for _ in range(max(runs, 5)))
print("process start (trace info on an empty trace): %.1f ms of CPU" % (start * 1e3))
print("%-21s %-8s %7s %9s %9s %8s %8s %8s  %s" % ("file", "", "MB", "MB/s CPU", "MB/s wall",
                                                  "ratio", "import", "wall", "peak RSS"))
for name in NAMES:
    text_mb = os.path.getsize(os.path.join(out, name + ".json")) / 1e6
    for kind in ("plain", "gzip"):
        path = os.path.join(out, name + (".json" if kind == "plain" else ".json.gz"))
        py, sp = interleaved(path)
        py_cpu, py_wall = min(t[0] for t in py), min(t[1] for t in py)
        py_rss = timed(["/usr/bin/python3", "-c", LOAD, path])[2]
        sp_cpu, sp_wall = min(t[0] for t in sp), min(t[1] for t in sp)
        sp_rss = max(t[2] for t in sp)
        label = "%s %s" % (name, kind)
        print("%-21s python3  %7.1f %9.1f %9.1f %8s %8s %8s  %6.0f MiB" % (
            label, text_mb, text_mb / py_cpu, text_mb / py_wall, "", "", "", py_rss / 1024))
        print("%-21s slimpack %7.1f %9.1f %9.1f %7.1fx %7.1fx %7.1fx  %6.0f MiB" % (
            label, text_mb, text_mb / sp_cpu, text_mb / sp_wall, py_cpu / sp_cpu,
            py_cpu / max(sp_cpu - start, 1e-6), py_wall / sp_wall, sp_rss / 1024))
PY
if [ -x "$limits" ]; then
  echo "the limit on the kineto-new files (libraries alone, best of $runs, CPU):"
  "$limits" "$dir/kineto-new.json" "$dir/kineto-new.json.gz" "$runs"
else
  echo "bench-trace: no $limits (build the target slimpack_trace_limits for the limit)" >&2
fi
