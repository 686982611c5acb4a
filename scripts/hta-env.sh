#!/usr/bin/env bash
# Adds Meta's HolisticTraceAnalysis (HTA) to the runtime's virtual environment, for the test that
# checks `slimpack trace summary` and `trace compare --steps` against it (tests/traces). The pins
# are app/runtime/requirements-hta.txt, installed with --no-deps (HTA declares jupyterlab, which
# it does not import). The wheels go to the same wheelhouse as scripts/runtime-env.sh's
# ($SLIMPACK_WHEELHOUSE, else slimpack-wheelhouse beside pip's cache), so a machine that cannot
# reach PyPI but shares the folder installs offline. scripts/runtime-env.sh calls this in a
# source tree (SLIMPACK_HTA=0 there skips it). Idempotent.
#   bash scripts/hta-env.sh [VENV]
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
req=$src/app/runtime/requirements-hta.txt
venv=${1:-$src/.venv}
if [[ ! -x $venv/bin/python ]]; then
  echo "hta-env: $venv has no Python: run scripts/runtime-env.sh first" >&2
  exit 2
fi
stamp=$venv/.slimpack-hta-requirements
if [[ -f $stamp && $(cat "$stamp") == "$(cat "$req")" ]] &&
    "$venv/bin/python" -c 'import hta.trace_analysis' 2>/dev/null; then
  echo "hta-env: HTA is installed in $venv"
  exit 0
fi
pip=("$venv/bin/python" -m pip --disable-pip-version-check)
cache=$("${pip[@]}" cache dir 2>/dev/null || echo "$HOME/.cache/pip")
wheelhouse=${SLIMPACK_WHEELHOUSE:-$cache/slimpack-wheelhouse}
mkdir -p "$wheelhouse"
log=$(mktemp)
if ! "${pip[@]}" download --quiet --progress-bar off --no-cache-dir --retries 1 --timeout 30 \
    --no-deps -d "$wheelhouse" -r "$req" 2>"$log"; then
  why=$(grep -m1 -oE 'certificate verify failed|Connection refused|Name or service not known|timed out|No matching distribution found for [^ ]+' "$log" || tail -n 1 "$log")
  echo "hta-env: PyPI is not reachable ($why); installing from $wheelhouse" >&2
fi
rm -f "$log"
if ! "${pip[@]}" install --quiet --progress-bar off --no-deps --no-index \
    --find-links "$wheelhouse" -r "$req"; then
  echo "hta-env: cannot install $req: PyPI is not reachable and $wheelhouse lacks a pinned wheel" >&2
  exit 2
fi
"$venv/bin/python" -c 'import hta.trace_analysis, hta.trace_diff'
cp "$req" "$stamp"
echo "hta-env: ready: HTA $("$venv/bin/python" -c 'from importlib.metadata import version; print(version("HolisticTraceAnalysis"))') in $venv"
