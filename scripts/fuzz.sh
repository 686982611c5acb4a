#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz, clang, ASan+UBSan) in build-fuzz/ and runs each for
# SECONDS (default 60). Corpora grow under build-fuzz/corpus/<target>/ (seeded from samples/,
# tests/cli/ and tests/fuzz/seeds/ on every run); a crash, leak, timeout or out-of-memory input is
# saved under build-fuzz/artifacts/<target>/ and makes the script exit 1.
#
#   bash scripts/fuzz.sh [SECONDS]
#   FUZZ_TARGETS="plan_json trace" FUZZ_JOBS=2 bash scripts/fuzz.sh 600
#
# FUZZ_TARGETS: names to run (default all); FUZZ_JOBS: fuzzers run at once (default 1);
# FUZZ_BUILD_JOBS: build parallelism (default 2); FUZZ_RSS_MB: memory cap of one fuzzer (default
# 2048); FUZZ_TIMEOUT: seconds one input may take (default 10).
# FUZZ_BUILD_ONLY=1 builds the targets and runs none (.ci/run --warm-cache).
# Reproduce a saved input: build-fuzz/tests/fuzz/fuzz_<target> build-fuzz/artifacts/<target>/crash-...
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
seconds=${1:-60}
if ! [[ $seconds =~ ^[0-9]+$ ]] || ((seconds < 1)); then
  echo "usage: scripts/fuzz.sh [SECONDS]  (SECONDS: a positive integer, default 60)" >&2
  exit 2
fi
jobs=${FUZZ_JOBS:-1}
rss_mb=${FUZZ_RSS_MB:-2048}
timeout_s=${FUZZ_TIMEOUT:-10}
build=$root/build-fuzz
# Every tests/fuzz/fuzz_<name>.cpp is a target (tests/fuzz/CMakeLists.txt lists their libraries).
all_targets=()
for f in tests/fuzz/fuzz_*.cpp; do
  f=${f##*/fuzz_}
  all_targets+=("${f%.cpp}")
done
read -r -a targets <<<"${FUZZ_TARGETS:-${all_targets[*]}}"

for tool in clang clang++ cmake ninja; do
  command -v "$tool" >/dev/null || { echo "fuzz: $tool not found (apt-get install clang libclang-rt-14-dev cmake ninja-build)" >&2; exit 2; }
done
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
if [[ ! -f $build/build.ninja ]]; then
  mkdir -p "$build"
  CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSLIMPACK_FUZZ=ON -DSLIMPACK_BUILD_GUI=OFF -DSLIMPACK_BUILD_TESTS=OFF \
    -DSLIMPACK_BUILD_BENCH=OFF -DSLIMPACK_ENABLE_MILP=OFF -DSLIMPACK_ENABLE_CUDA=OFF \
    "${launcher[@]}" >"$build/configure.log" 2>&1 ||
    { cat "$build/configure.log" >&2; echo "fuzz: configure failed" >&2; exit 2; }
fi
build_targets=()
for t in "${targets[@]}"; do build_targets+=("fuzz_$t"); done
if ! cmake --build "$build" -j "${FUZZ_BUILD_JOBS:-2}" --target "${build_targets[@]}" \
  >"$build/fuzz-build.log" 2>&1; then
  tail -40 "$build/fuzz-build.log" >&2
  echo "fuzz: build failed (log: $build/fuzz-build.log)" >&2
  exit 2
fi
[[ ${FUZZ_BUILD_ONLY:-0} == 1 ]] && exit 0

# Seed files per target: samples, CLI test inputs and the malformed corpus of the same format,
# and tests/fuzz/seeds/<target>/ (hand-written seeds and every input a fuzzer ever crashed on).
seeds_of() {
  case $1 in
    lengths_csv) ls samples/lengths/*.csv tests/cli/inputs/*.csv tests/cli/bad/lengths/*.csv ;;
    lengths_json) ls samples/lengths/*.json tests/cli/inputs/*.json tests/cli/bad/lengths/*.json ;;
    lengths_jsonl) ls samples/lengths/*.jsonl tests/cli/inputs/*.jsonl tests/cli/bad/lengths/*.jsonl ;;
    plan_json) ls samples/plans/*.json tests/cli/bad/plans/*.json ;;
    schedule_json) ls samples/schedules/*.json tests/cli/bad/schedules/*.json ;;
    torch_pp_csv) ls samples/runs/*/*.csv tests/cli/inputs/*/torch-pp.csv ;;
    trace) ls samples/traces/*.json tests/cli/bad/traces/*.json ;;
    trace_gzip) ls samples/traces/*.gz tests/cli/bad/traces/*.gz ;;
    cost_profile_json) ls samples/costs/*.json tests/cli/bad/costs/*.profile.json ;;
    cost_csv) ls samples/costs/*.csv tests/cli/bad/costs/*.csv ;;
    cost_overrides) ls tests/cli/bad/overrides/*.json ;;
    hf_config) ls samples/hf/*.json samples/hf/*/config.json tests/cli/bad/hf/*.json ;;
    lane_mapping) ls tests/cli/bad/lanes/*.json ;;
    session) ls tests/cli/bad/sessions/*.slimpack ;;
  esac 2>/dev/null
  ls -d tests/fuzz/seeds/"$1"/* 2>/dev/null
}
dict_of() {
  case $1 in
    lengths_csv | cost_csv) echo csv ;;
    lengths_json | lengths_jsonl) echo lengths_json ;;
    trace | trace_gzip) echo trace ;;
    cost_profile_json | cost_overrides) echo cost ;;
    *) echo "$1" ;;
  esac
}

# Runs one target; writes its summary line to $build/logs/<target>.line.
run_one() {
  local t=$1 corpus=$build/corpus/$1 art=$build/artifacts/$1/ log=$build/logs/$1.log
  mkdir -p "$corpus" "$art"
  local seed
  while read -r seed; do
    [[ -f $seed ]] && cp -n "$seed" "$corpus/seed-$(basename "$seed")"
  done < <(seeds_of "$t")
  local before
  before=$(find "$art" -type f | wc -l)
  local dict=$root/tests/fuzz/dict/$(dict_of "$t").dict
  local args=(-max_total_time="$seconds" -rss_limit_mb="$rss_mb" -malloc_limit_mb="$rss_mb"
    -timeout="$timeout_s" -print_final_stats=1 -artifact_prefix="$art" -max_len=65536)
  [[ -f $dict ]] && args+=(-dict="$dict")
  # detect_leaks is on by default under ASan; UBSan aborts on its first report (see CMake flags).
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
    "$build/tests/fuzz/fuzz_$t" "${args[@]}" "$corpus" >"$log" 2>&1
  local rc=$?
  local runs cov found
  runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
  found=$(($(find "$art" -type f | wc -l) - before))
  ((rc != 0 && found == 0)) && found=1
  local what=""
  if ((rc != 0)); then
    what=" ($(grep -o -m1 'ERROR: [A-Za-z]*: [a-z-]*\|ERROR: libFuzzer: [a-z-]*\|fuzz invariant broken: .*\|runtime error: .*' "$log" | head -1); log: $log)"
  fi
  printf '%-18s runs %-10s coverage %-6s crashes %s%s\n' "$t" "${runs:-?}" "${cov:-?}" "$found" \
    "$what" >"$build/logs/$t.line"
}

mkdir -p "$build/logs"
echo "fuzz: ${#targets[@]} targets, ${seconds}s each, $jobs at a time, rss ${rss_mb} MB, timeout ${timeout_s}s"
running=0
for t in "${targets[@]}"; do
  rm -f "$build/logs/$t.line"
  run_one "$t" &
  running=$((running + 1))
  if ((running >= jobs)); then
    wait -n
    running=$((running - 1))
  fi
done
wait

crashes=0
for t in "${targets[@]}"; do
  line=$(cat "$build/logs/$t.line" 2>/dev/null || echo "$t: no result")
  echo "$line"
  n=$(grep -o 'crashes [0-9]*' <<<"$line" | grep -o '[0-9]*$')
  crashes=$((crashes + ${n:-1}))
done
echo "${#targets[@]} targets, $crashes crashes"
((crashes == 0))
