#!/usr/bin/env bash
# Runs every `slimpack ...` command of the fenced `sh` blocks of the given Markdown files exactly as
# written, so an example in the README or the user guide cannot drift from the program again
# (a sample path and a preset name in the README had). Each command must exit 0.
#   doc_commands.sh SLIMPACK SOURCE_DIR DOC.md...
# SLIMPACK_NO_IMAGES=1 (a build without QtGui): commands with --png/--svg/--pdf are listed, not run.
# The commands run in a scratch folder where `slimpack` and `./build/app/cli/slimpack` are the
# program under test and `samples/` is the source tree's. The files the examples only name
# (rank0.pt.trace.json, before/after traces, out/trace.json, plan.json) are made first, from the
# samples, with slimpack itself. Other lines of those blocks (building, packaging, the desktop
# explorer) are listed as not run, with the reason.
set -euo pipefail
cli=$(realpath "$1")
src=$(realpath "$2")
shift 2
docs=()
for doc in "$@"; do docs+=("$(realpath "$doc")"); done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/bin" "$work/build/app/cli" "$work/out"
ln -s "$cli" "$work/bin/slimpack"
ln -s "$cli" "$work/build/app/cli/slimpack"
ln -s "$src/samples" "$work/samples"
export PATH="$work/bin:$PATH"
cd "$work"

# The files the examples name, made the way the docs say they come about.
slimpack simulate --json out/summary.json --trace out/trace.json >/dev/null
gzip -c samples/traces/step_before.json >before.pt.trace.json.gz
gzip -c samples/traces/step_after.json >after.pt.trace.json.gz
slimpack solve --lengths samples/lengths/chat_sft_lengths.csv --out plan.json >/dev/null
# A Megatron-LM style trace of plan.json: our own export with the packs renamed to Megatron's timer
# ranges (forward-compute / backward-compute, numbered by order on the lane).
slimpack simulate --plan plan.json --trace own.trace.json >/dev/null
sed -E 's/"name": ?"F[0-9]+"/"name":"forward-compute"/g; s/"name": ?"B[0-9]+"/"name":"backward-compute"/g' \
  own.trace.json >rank0.pt.trace.json
grep -q forward-compute rank0.pt.trace.json || { echo "could not make rank0.pt.trace.json" >&2; exit 1; }
cp rank0.pt.trace.json t.json
fixtures=$(ls -A | sort | tr '\n' ' ')

# Lines of ```sh blocks, continuation lines joined, comments after the command removed.
extract() {
  awk '
    /^```/ { if (inblock) { inblock = 0 } else if ($0 ~ /^```(sh|bash|shell)[ \t]*$/) { inblock = 1 }; next }
    inblock {
      line = $0
      while (line ~ /\\[ \t]*$/ && (getline more) > 0) { sub(/\\[ \t]*$/, "", line); line = line " " more }
      sub(/^[ \t]+/, "", line)
      print line
    }' "$1"
}

ran=0
failed=0
for doc in "${docs[@]}"; do
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    cmd=$(printf '%s' "$line" | sed -E 's/[[:space:]]+#.*$//; s/[[:space:]]+$//')
    case "$cmd" in
      *" --png "* | *" --svg "* | *" --pdf "*)
        if [ "${SLIMPACK_NO_IMAGES:-0}" = 1 ]; then
          echo "not run ($(basename "$doc")): $cmd  [this slimpack was built without QtGui: no images]"
          continue
        fi ;;
    esac
    case "$cmd" in
      "slimpack "* | "./build/app/cli/slimpack "*) ;;
      slimpack-explorer* | ./build/app/explorer/*)
        echo "not run ($(basename "$doc")): $cmd  [the desktop explorer: tests/ui]"
        continue ;;
      "bash scripts/"* | "sudo "* | "cmake "* | "ctest "* | "FUZZ_"*)
        echo "not run ($(basename "$doc")): $cmd  [building, testing or packaging: CI runs these]"
        continue ;;
      *)
        echo "not run ($(basename "$doc")): $cmd  [not a slimpack command]"
        continue ;;
    esac
    ran=$((ran + 1))
    start=$(date +%s%N)
    if bash -c "$cmd" >"$work/last.out" 2>"$work/last.err"; then
      printf 'ok   %6d ms (%s) %s\n' $((($(date +%s%N) - start) / 1000000)) "$(basename "$doc")" "$cmd"
    else
      rc=$?
      failed=$((failed + 1))
      echo "FAIL exit $rc ($(basename "$doc")): $cmd"
      sed 's/^/    /' "$work/last.err" | head -5
    fi
  done < <(extract "$doc")
done

echo "$ran commands run, $failed failed (fixtures: $fixtures)"
[ "$ran" -gt 0 ] || { echo "no slimpack command found: did the docs' code blocks change?" >&2; exit 1; }
[ "$failed" -eq 0 ]
