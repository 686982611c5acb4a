#!/usr/bin/env bash
# Runs `slimpack search` as a Slurm job array and merges the shards (docs/search.md, "On Slurm").
#
#   scripts/search-slurm.sh [--workdir DIR] [--chunk N] [--max-array N] [--cpus N]
#                           [--slimpack PATH] [--sbatch-option OPT]... [--wait-limit S]
#                           -- SEARCH OPTIONS...
#
# Counts the configurations (`slimpack search ... --count`), splits them into shards of about
# --chunk configurations each (at most --max-array tasks, since sites cap array sizes), writes
# DIR/search.sbatch (one array task per shard: `slimpack search ... --shard-dir DIR/shards`, which
# takes its shard from SLURM_ARRAY_TASK_ID / SLURM_ARRAY_TASK_COUNT), submits it, polls squeue
# until no task is left, reads every task's ExitCode from scontrol (sbatch --wait misses failed
# tasks once they age out of the controller), and merges the shards into DIR/search.json and
# DIR/search.csv. Running it again with the same DIR resumes: finished configurations are skipped.
# --wait-limit S (default 0 = none): give up (exit 1, with squeue's reason) when the array has
# not finished after S seconds, e.g. tasks that stay pending on a misconfigured cluster.
set -euo pipefail

workdir=search-slurm
chunk=200
wait_limit=0
max_array=1000
cpus=1
slimpack=slimpack
sbatch_opts=()
while (($#)); do
  case "$1" in
    --workdir) workdir=$2; shift 2 ;;
    --chunk) chunk=$2; shift 2 ;;
    --max-array) max_array=$2; shift 2 ;;
    --cpus) cpus=$2; shift 2 ;;
    --slimpack) slimpack=$2; shift 2 ;;
    --sbatch-option) sbatch_opts+=("$2"); shift 2 ;;
    --wait-limit) wait_limit=$2; shift 2 ;;
    --) shift; break ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "search-slurm: unknown option $1 (search options go after --)" >&2; exit 2 ;;
  esac
done
search_args=("$@")
slimpack=$(command -v "$slimpack" || echo "$slimpack")
slimpack=$(realpath "$slimpack")
mkdir -p "$workdir/shards" "$workdir/logs"
workdir=$(realpath "$workdir")

count=$("$slimpack" search "${search_args[@]}" --count)
shards=$(((count + chunk - 1) / chunk))
((shards >= 1)) || shards=1
((shards <= max_array)) || shards=$max_array
echo "search-slurm: $count configurations in $shards array tasks (about $(((count + shards - 1) / shards)) each)"

# Shard files of another shard count would not merge: a different split starts afresh.
if [ -f "$workdir/shards.count" ] && [ "$(cat "$workdir/shards.count")" != "$shards" ]; then
  echo "search-slurm: $workdir holds shards of another split; remove $workdir/shards first" >&2
  exit 2
fi
echo "$shards" >"$workdir/shards.count"

{
  echo "#!/usr/bin/env bash"
  echo "#SBATCH --job-name=slimpack-search"
  echo "#SBATCH --array=0-$((shards - 1))"
  echo "#SBATCH --cpus-per-task=$cpus"
  echo "#SBATCH --output=$workdir/logs/task-%a.out"
  for o in "${sbatch_opts[@]}"; do echo "#SBATCH $o"; done
  printf 'exec %q search' "$slimpack"
  printf ' %q' "${search_args[@]}"
  printf ' --threads %q --shard-dir %q --quiet\n' "$cpus" "$workdir/shards"
} >"$workdir/search.sbatch"

job=$(sbatch --parsable "$workdir/search.sbatch")
job=${job%%;*}
echo "search-slurm: submitted job array $job"
waited=0
while squeue -h -j "$job" 2>/dev/null | grep -q .; do
  if ((${wait_limit:-0} > 0 && waited >= wait_limit)); then
    echo "search-slurm: job array $job has not finished after ${wait_limit} s; squeue says:" >&2
    squeue -h -j "$job" -o '%i %T %r' >&2 || true
    scancel "$job" 2>/dev/null || true
    exit 1
  fi
  sleep 1
  waited=$((waited + 1))
done

# Every task's exit code, while the controller still has the records (MinJobAge).
failed=0
seen=0
while read -r line; do
  task=$(sed -n 's/.*ArrayTaskId=\([0-9]*\).*/\1/p' <<<"$line")
  code=$(sed -n 's/.*ExitCode=\([0-9:]*\).*/\1/p' <<<"$line")
  [ -n "$task" ] || continue
  seen=$((seen + 1))
  if [ "$code" != "0:0" ]; then
    failed=$((failed + 1))
    echo "search-slurm: task $task exited with $code (log: $workdir/logs/task-$task.out)" >&2
    tail -5 "$workdir/logs/task-$task.out" >&2 2>/dev/null || true
  fi
done < <(scontrol -o show job "$job" 2>/dev/null || true)
if ((failed)); then
  echo "search-slurm: $failed of $shards tasks failed; run this again with --workdir $workdir to resume" >&2
  exit 1
fi
if ((seen < shards)); then
  echo "search-slurm: the controller no longer lists every task; merge checks the shard files" >&2
fi

"$slimpack" search merge "$workdir"/shards/shard-*-of-"$shards".jsonl \
  --json "$workdir/search.json" --csv "$workdir/search.csv"
echo "search-slurm: wrote $workdir/search.json and $workdir/search.csv"
