#!/usr/bin/env bash
# A sharded search on a real single-node Slurm (scripts/slurm-local.sh) through
# scripts/search-slurm.sh: a job array whose task 1 fails is reported with its exit code, the
# rerun resumes from the shard files, and the merge equals the unsharded run byte for byte.
# Usage: sharded_search_test.sh SLIMPACK SOURCE_DIR. Exit 77 (skipped) only when the Slurm
# packages cannot be installed.
set -euo pipefail
slimpack=$(realpath "$1")
src=$(realpath "$2")
if ! bash "$src/scripts/slurm-local.sh" install; then
  echo "SKIPPED: the Slurm packages (slurmctld slurmd slurm-client munge) cannot be installed"
  exit 77
fi
tmp=$(mktemp -d)
trap 'bash "$src/scripts/slurm-local.sh" stop "$tmp/slurm"; rm -rf "$tmp"' EXIT
bash "$src/scripts/slurm-local.sh" start "$tmp/slurm"
source "$tmp/slurm/env"

search=(--preset long-sft-128k --batch-tokens 262144 --gpus 8 --batches 2)
"$slimpack" search "${search[@]}" --threads 2 --quiet --json "$tmp/unsharded.json" >/dev/null

# Task 1 of the first submission fails before it does anything.
cat >"$tmp/flaky" <<FLAKY
#!/usr/bin/env bash
if [ "\${SLURM_ARRAY_TASK_ID:-}" = 1 ] && [ ! -e "$tmp/healed" ]; then exit 3; fi
exec "$slimpack" "\$@"
FLAKY
chmod +x "$tmp/flaky"
if bash "$src/scripts/search-slurm.sh" --workdir "$tmp/run" --chunk 40 --slimpack "$tmp/flaky" \
    --wait-limit 60 -- "${search[@]}" 2>"$tmp/first.err"; then
  echo "FAIL: a failed array task was not reported"; exit 1
fi
grep -q "task 1 exited with 3:0" "$tmp/first.err" || { echo "FAIL: no exit code for task 1"; cat "$tmp/first.err"; tail -5 "$tmp/slurm/log/"*.log; exit 1; }
tasks=$(cat "$tmp/run/shards.count")
((tasks == 7)) || { echo "FAIL: expected 7 array tasks, got $tasks"; exit 1; }

# The rerun resumes (finished shards are skipped) and the merge is the unsharded result.
touch "$tmp/healed"
bash "$src/scripts/search-slurm.sh" --workdir "$tmp/run" --chunk 40 --slimpack "$tmp/flaky" \
  --wait-limit 60 -- "${search[@]}" >"$tmp/second.out"
cmp "$tmp/unsharded.json" "$tmp/run/search.json" || { echo "FAIL: merge differs from the unsharded run"; exit 1; }
echo "OK: $tasks array tasks, failure reported, resumed, merge == unsharded"
