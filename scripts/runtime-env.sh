#!/usr/bin/env bash
# Creates (or refreshes) the Python virtual environment of slimpack-run: PyTorch 2.x and the test
# tools from PyPI, pinned in app/runtime/requirements.txt, plus the slimpack_runtime package itself
# (pip install of app/runtime, editable from a source tree). Debian's Python refuses pip installs
# (PEP 668), hence the environment. The wheels are kept in a wheelhouse (below), so a second
# environment, or a machine that shares the folder, installs without reaching PyPI. Default folder: .venv in the source tree; give another as $1
# (the Debian package's copy of this script defaults to ~/.local/share/slimpack-explorer/venv).
# Idempotent: a second run with nothing changed only checks (no download).
#   bash scripts/runtime-env.sh [DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [[ -f $here/../app/runtime/requirements.txt ]]; then   # source tree
  src=$(cd "$here/.." && pwd)
  req=$src/app/runtime/requirements.txt
  pkg=$src/app/runtime
  default=$src/.venv
else                                                        # installed: share/slimpack-explorer
  src=""
  req=$here/python/requirements.txt
  pkg=""
  default=${XDG_DATA_HOME:-$HOME/.local/share}/slimpack-explorer/venv
fi
venv=${1:-$default}
python=${SLIMPACK_BASE_PYTHON:-/usr/bin/python3}
if ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
  echo "runtime-env: $python cannot create virtual environments: install python3-venv" >&2
  exit 2
fi
stamp=$venv/.slimpack-requirements
want=$(cat "$req"; if [[ -n $pkg ]]; then cat "$pkg/pyproject.toml"; fi)
# In a source tree, HTA for the trace tests (scripts/hta-env.sh; SLIMPACK_HTA=0 skips it).
hta() {
  if [[ -n $src && ${SLIMPACK_HTA:-1} != 0 ]]; then bash "$here/hta-env.sh" "$venv"; fi
}
if [[ -x $venv/bin/python && -f $stamp && $(cat "$stamp") == "$want" ]]; then
  echo "runtime-env: $venv is up to date ($("$venv/bin/python" -c 'import torch; print("torch", torch.__version__)'))"
  hta
  exit 0
fi
echo "runtime-env: creating $venv (PyTorch from PyPI: a large download the first time)"
"$python" -m venv "$venv"
# The pinned wheels go to a wheelhouse first (beside pip's cache, or $SLIMPACK_WHEELHOUSE), and
# are installed from there: a machine that fetched them once, or a node that cannot reach PyPI
# but shares the folder (an air-gapped cluster, a chroot without the proxy's certificate),
# installs offline.
pip=("$venv/bin/python" -m pip --disable-pip-version-check)
cache=$("${pip[@]}" cache dir 2>/dev/null || echo "$HOME/.cache/pip")
wheelhouse=${SLIMPACK_WHEELHOUSE:-$cache/slimpack-wheelhouse}
mkdir -p "$wheelhouse"
log=$(mktemp)
if ! "${pip[@]}" download --quiet --progress-bar off --no-cache-dir --retries 1 --timeout 30 \
    -d "$wheelhouse" -r "$req" 2>"$log"; then
  why=$(grep -m1 -oE 'certificate verify failed|Connection refused|Name or service not known|timed out|No matching distribution found for [^ ]+' "$log" || tail -n 1 "$log")
  echo "runtime-env: PyPI is not reachable ($why); installing from $wheelhouse" >&2
fi
rm -f "$log"
if ! "${pip[@]}" install --quiet --progress-bar off --no-index --find-links "$wheelhouse" -r "$req"; then
  echo "runtime-env: cannot install $req: PyPI is not reachable and $wheelhouse lacks a pinned wheel" >&2
  exit 2
fi
if [[ -n $pkg ]]; then   # the source tree's package, editable
  "${pip[@]}" install --quiet --no-deps --no-build-isolation --no-index -e "$pkg"
else                     # the installed package, by a .pth file
  site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  echo "$here/python" >"$site/slimpack_runtime.pth"
fi
printf '%s' "$want" >"$stamp"
echo "runtime-env: ready: $("$venv/bin/python" -c 'import sys, torch; print(f"torch {torch.__version__} on Python {sys.version.split()[0]}")')"
hta
