#!/usr/bin/env bash
# A multi-rank run at scale: RANKS Kineto-shaped rank files of SIZE_MB each
# (scripts/make-kineto-trace.py, one file written, the others copies with their own
# distributedInfo.rank), then, in the same run and with /usr/bin/time -v (or the same figures from
# the child's rusage where GNU time is missing), `slimpack trace summary`
# of all of them one rank after the other (--threads 1) and on every core (the default), and the
# explorer opening them as one run with its GPU summary (--screenshot --view traces waits for the
# summary job) when an explorer binary is given. Prints wall, user + system CPU and peak RSS.
# The files go to DIR (default /var/tmp/slimpack-ranks, never the repository) and are deleted at
# the end unless KEEP=1. BEFORE=OTHER_SLIMPACK also times another build's `trace summary` of the
# files (its defaults), for a before/after comparison in the same run.
# Usage: scripts/bench-trace-ranks.sh SLIMPACK [EXPLORER|-] [RANKS] [SIZE_MB] [DIR]
#        (default: - (no explorer), 16, 200, /var/tmp/slimpack-ranks)
set -euo pipefail
cli=$(realpath "$1")
explorer=${2:--}
[ "$explorer" = - ] || explorer=$(realpath "$explorer")
[ -z "${BEFORE:-}" ] || BEFORE=$(realpath "$BEFORE")
cd "$(dirname "$0")/.."
ranks=${3:-16}
size=${4:-200}
dir=${5:-/var/tmp/slimpack-ranks}
[ -x "$cli" ] || { echo "bench-trace-ranks: no slimpack binary at $cli" >&2; exit 2; }
mkdir -p "$dir"
[ "${KEEP:-0}" = 1 ] || trap 'rm -f "$dir"/rank*.pt.trace.json "$dir"/shot.png "$dir"/time.txt' EXIT
if [ ! -s "$dir/rank$((ranks - 1)).pt.trace.json" ]; then
  python3 scripts/make-kineto-trace.py "$dir/rank0.pt.trace.json" "$size" >/dev/null
  for ((r = 1; r < ranks; r++)); do
    { head -c 4096 "$dir/rank0.pt.trace.json" | sed "0,/\"rank\": 0/s//\"rank\": $r/"
      tail -c +4097 "$dir/rank0.pt.trace.json"; } >"$dir/rank$r.pt.trace.json"
  done
fi
files=()
for ((r = 0; r < ranks; r++)); do files+=("$dir/rank$r.pt.trace.json"); done
cat "${files[@]}" >/dev/null  # into the page cache: every run reads them from memory

measure() {  # LABEL COMMAND...
  local label=$1
  shift
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -v -o "$dir/time.txt" "$@" >/dev/null
  else  # the same figures from the child's rusage, printed as GNU time -v does
    python3 -c '
import os, subprocess, sys, time
t = time.time()
p = subprocess.Popen(sys.argv[2:], stdout=subprocess.DEVNULL)
_, status, ru = os.wait4(p.pid, 0)
with open(sys.argv[1], "w") as f:
    f.write("User time (seconds): %.2f\nSystem time (seconds): %.2f\n" % (ru.ru_utime, ru.ru_stime))
    f.write("Maximum resident set size (kbytes): %d\n" % ru.ru_maxrss)
    f.write("Elapsed (wall clock) time (h:mm:ss or m:ss): %.2f\n" % (time.time() - t))
sys.exit(os.waitstatus_to_exitcode(status))' "$dir/time.txt" "$@"
  fi
  awk -v label="$label" -F': ' '
    /User time/ { user = $2 } /System time/ { sys = $2 } /Maximum resident/ { rss = $2 }
    /Elapsed \(wall clock\)/ { n = split($2, p, ":"); wall = 0; for (i = 1; i <= n; i++) wall = wall * 60 + p[i] }
    END { printf "| %s | %.1f s | %.1f + %.1f s | %.0f MB |\n", label, wall, user, sys, rss / 1024 }' \
    "$dir/time.txt"
}

echo "$ranks rank files of $(($(stat -c %s "${files[0]}") / 1000000)) MB, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| run | wall | CPU user + system | peak RSS |"
echo "| --- | --- | --- | --- |"
if [ -n "${BEFORE:-}" ]; then
  measure "before: trace summary" "$BEFORE" trace summary --json - "${files[@]}"
fi
measure "trace summary --threads 1" "$cli" trace summary --threads 1 --json - "${files[@]}"
measure "trace summary --threads $(nproc) (one worker per core)" "$cli" trace summary --threads "$(nproc)" --json - "${files[@]}"
if [ "$explorer" != - ]; then
  QT_QPA_PLATFORM=offscreen measure "explorer: open as one run, GPU summary" \
    "$explorer" --screenshot "$dir/shot.png" --view traces "${files[@]}"
fi
