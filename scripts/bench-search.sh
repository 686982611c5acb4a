#!/usr/bin/env bash
# The configuration-search figures of docs/performance.md and docs/search.md, in one run:
#   8b        Llama-3-8B on H100, --gpus 64, long-sft-128k, 16 batches, the default space (pruned)
#   8b-full   the same with --no-prune, and a check that both give the same fronts (--exhaustive)
#   70b       Llama-3-70B, --gpus 512, long-256k, 32 batches, one process of --threads threads
#   slurm-N   the 70b search as a job array of N one-thread tasks on a real local Slurm
#             (scripts/slurm-local.sh, scripts/search-slurm.sh), merged and compared with the
#             one-process JSON byte for byte (cmp)
# Each run prints wall and CPU seconds (the CPU of every process of the run, from its rusage:
# /usr/bin/time around slimpack, per array task for Slurm), configurations per CPU-second and the
# search's own counts line (solved, infeasible, pruned). CPU is the figure to compare on a shared machine.
# Usage: scripts/bench-search.sh [--slimpack BIN] [--threads N] [--shards "2 8"] [--exhaustive]
#        [--no-slurm] [--keep DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
slimpack=build-bench/app/cli/slimpack
threads=$(nproc)
shard_counts="2 8"
exhaustive=0
slurm=1
keep=""
while (($#)); do
  case "$1" in
    --slimpack) slimpack=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --shards) shard_counts=$2; shift 2 ;;
    --exhaustive) exhaustive=1; shift ;;
    --no-slurm) slurm=0; shift ;;
    --keep) keep=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-search: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -x /usr/bin/time ] || { echo "bench-search: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }
if [ ! -x "$slimpack" ]; then
  echo "bench-search: building Release into $(dirname "$(dirname "$(dirname "$slimpack")")")" >&2
  build=$(dirname "$(dirname "$(dirname "$slimpack")")")
  bash scripts/deps.sh >/dev/null
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSLIMPACK_BUILD_TESTS=OFF >/dev/null
  cmake --build "$build" -j"$(nproc)" --target slimpack
fi
slimpack=$(realpath "$slimpack")
dir=${keep:-$(mktemp -d)}
mkdir -p "$dir"
[ -n "$keep" ] || trap 'rm -rf "$dir"' EXIT

b8=(--gpus 64 --batches 16)
b70=(--model llama-3-70b --gpus 512 --preset long-256k --batches 32)

# timed NAME COMMAND...: runs one search, prints its line from the CPU and wall /usr/bin/time saw.
timed() {
  local name=$1
  shift
  /usr/bin/time -f '%e %U %S' -o "$dir/$name.time" "$@" --quiet >"$dir/$name.out"
  report "$name" "$(cut -d' ' -f1 "$dir/$name.time")" \
    "$(awk '{printf "%.2f", $2 + $3}' "$dir/$name.time")" "$(grep -m 1 ' configurations: ' "$dir/$name.out")"
}

# report NAME WALL CPU COUNTS
report() {
  local configs
  configs=$(sed -n 's/^\([0-9]*\) configurations:.*/\1/p' <<<"$4")
  printf '%-10s wall %7.1f s   CPU %7.1f s   %6.1f configurations/CPU-s   %s\n' "$1" "$2" "$3" \
    "$(awk -v c="${configs:-0}" -v s="$3" 'BEGIN { print (s > 0 ? c / s : 0) }')" "$4"
}

echo "== slimpack search, $threads threads ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
timed 8b "$slimpack" search "${b8[@]}" --threads "$threads" --json "$dir/8b.json"
if ((exhaustive)); then
  timed 8b-full "$slimpack" search "${b8[@]}" --threads "$threads" --no-prune --json "$dir/8b-full.json"
  python3 - "$dir/8b.json" "$dir/8b-full.json" <<'PY'
import json, sys
def fronts(path):
    doc = json.load(open(path))
    keys = ("p", "t", "c", "d", "slice", "recompute", "schedule", "strategy")
    out = {}
    for name, value in doc.items():
        if name.startswith("front") and isinstance(value, list):
            out[name] = [tuple(doc["configs"][i][k] for k in keys) + (
                doc["configs"][i]["mean_iteration_time"], doc["configs"][i]["peak_memory_bytes"])
                for i in value]
    return out
a, b = fronts(sys.argv[1]), fronts(sys.argv[2])
print("fronts: %s" % ("the same (%s)" % ", ".join("%s %d" % (k, len(v)) for k, v in a.items())
                      if a == b else "DIFFERENT"))
sys.exit(0 if a == b else 1)
PY
fi
timed 70b "$slimpack" search "${b70[@]}" --threads "$threads" --json "$dir/70b.json"

((slurm)) || exit 0
bash scripts/slurm-local.sh install >/dev/null
bash scripts/slurm-local.sh start "$dir/slurm" >/dev/null
trap 'bash scripts/slurm-local.sh stop "$dir/slurm" >/dev/null 2>&1 || true; [ -n "$keep" ] || rm -rf "$dir"' EXIT
# shellcheck disable=SC1091
source "$dir/slurm/env"
# Each array task runs slimpack under /usr/bin/time, so that the array's CPU is every task's.
cat >"$dir/timed-slimpack" <<EOF
#!/usr/bin/env bash
exec /usr/bin/time -f '%e %U %S' -o "$dir/cpu-\${SLURM_ARRAY_JOB_ID:-count}-\${SLURM_ARRAY_TASK_ID:-0}.txt" "$slimpack" "\$@"
EOF
chmod +x "$dir/timed-slimpack"
count=$("$slimpack" search "${b70[@]}" --count)
for n in $shard_counts; do
  rm -f "$dir"/cpu-*.txt
  start=$(date +%s.%N)
  bash scripts/search-slurm.sh --workdir "$dir/run-$n" --chunk $(((count + n - 1) / n)) \
    --slimpack "$dir/timed-slimpack" --wait-limit 3600 -- "${b70[@]}" >"$dir/slurm-$n.out"
  wall=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
  tasks=$(cat "$dir"/cpu-[0-9]*-*.txt | awk '{ printf "%s%.1f", (NR > 1 ? ", " : ""), $2 + $3 }')
  cpu=$(cat "$dir"/cpu-[0-9]*-*.txt | awk '{ s += $2 + $3 } END { printf "%.2f", s }')
  same=$(cmp -s "$dir/70b.json" "$dir/run-$n/search.json" && echo "merge = one process (cmp)" ||
    echo "MERGE DIFFERS from one process")
  report "slurm-$n" "$wall" "$cpu" "$count configurations: $n tasks of 1 thread, CPU per task: $tasks; $same"
  [[ $same == merge* ]] || exit 1
done
